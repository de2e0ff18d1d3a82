import { studentQuantile } from '../../../bench/maths/student.js';

describe("Student's t", () => {
  it.each([
    [0.975, 1, 12.706],
    [0.975, 3, 3.182],
    [0.975, 10, 2.228],
    [0.995, 3, 5.841],
  ])('its %f quantile with %i degrees of freedom is %f', (p, df, expected) => {
    expect(studentQuantile(p, df)).toBeCloseTo(expected, 3);
  });
});
