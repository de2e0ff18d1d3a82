// What a server traced with V8's --trace-opt --trace-deopt prints on its stdout, counted as it comes: Maglev and
// TurboFan compiles that completed, deoptimizations. Shared by the experiments that trace a server under load.

/**
 * @param {import('node:stream').Readable} stdout the traced server's
 * @returns {{ counts: { maglev: number, turbofan: number, deopt: number }, ready: Promise<void> }} ready once the
 *   server logs that it listens
 */
export function tracedCounts(stdout) {
  const counts = { maglev: 0, turbofan: 0, deopt: 0 };
  let listening;
  const ready = new Promise((resolve) => (listening = resolve));
  let pending = '';
  stdout.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (line.includes('listening on')) listening();
      if (line.startsWith('[completed compiling') || line.startsWith('[completed optimizing')) {
        if (line.includes('MAGLEV')) counts.maglev++;
        else if (line.includes('TURBOFAN')) counts.turbofan++;
      }
      if (line.startsWith('[bailout') || line.includes('deoptimizing')) counts.deopt++;
    }
  });
  return { counts, ready };
}
