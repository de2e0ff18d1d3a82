import { messageLine } from '../../../../bench/own-app/launch/launcher-env.js';

describe('messageLine: a boot error in one line', () => {
  it('takes the first line with words, and the next where it ends in a colon', () => {
    // realworld-nestjs's env validation, thrown from NestFactory.create, read as "Error: "
    const validation = '\nError in ELASTICSEARCH_NODE:\n+ isString: ELASTICSEARCH_NODE must be a string';
    expect(messageLine(validation)).toBe(
      'Error in ELASTICSEARCH_NODE: + isString: ELASTICSEARCH_NODE must be a string',
    );
    expect(messageLine('res.json is not a function\n    at x.js:1')).toBe('res.json is not a function');
    expect(messageLine('')).toBe('');
  });
});
