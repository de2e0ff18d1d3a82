// @ts-check
// Every child process the bench starts (servers, generators) dies with it, however the bench ends.
/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

/** @type {Set<ChildProcess>} */
const liveChildren = new Set();
let exitHookInstalled = false;

/**
 * The normal path stops children in order; this is the net for crashes and a second Ctrl-C.
 * @param {ChildProcess} child
 */
export function killOnExit(child) {
  if (!exitHookInstalled) {
    process.once('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
    exitHookInstalled = true;
  }
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
}
