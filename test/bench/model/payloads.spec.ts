import { MULTIPART_TYPE, bodyBytes, multipartFormOfBytes } from '../../../bench/model/payloads.js';

describe('bodyBytes: what a request body is sent as', () => {
  const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);

  it('sends a form the bench built with a file that is not text byte for byte, its text fields as UTF-8', () => {
    const form = multipartFormOfBytes({
      fields: [['name', 'Zoë']],
      files: [{ field: 'photo', filename: 'photo.png', type: 'image/png', content: picture }],
    });
    const sent = bodyBytes(form, { 'Content-Type': MULTIPART_TYPE });
    expect(sent.includes(picture)).toBe(true);
    expect(sent.includes(Buffer.from('\r\n\r\nZoë\r\n'))).toBe(true);
  });

  it('sends any other body as UTF-8 text', () => {
    expect(bodyBytes('{"name":"Zoë"}', { 'content-type': 'application/json' })).toEqual(Buffer.from('{"name":"Zoë"}'));
    expect(bodyBytes('Zoë', { 'content-type': 'multipart/form-data; boundary=theirs' })).toHaveLength(4);
  });
});
