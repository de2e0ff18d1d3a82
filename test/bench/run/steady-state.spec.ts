import { currentNode } from '../../../bench/runtimes/runtimes.js';
import { steadyStateArgs } from '../../../bench/run/steady-state.js';

describe('the flags that hold a server in one heap state', () => {
  it("turn V8's memory reducer off on node", () => {
    expect(steadyStateArgs(currentNode(), { memoryReducer: false })).toEqual(['--no-memory-reducer']);
  });

  it('leave it on when --memory-reducer asks for it', () => {
    expect(steadyStateArgs(currentNode(), { memoryReducer: true })).toEqual([]);
  });

  it('give Bun none: JavaScriptCore has no memory reducer of that kind', () => {
    const bun = { ...currentNode('bun'), name: 'bun' as const, version: '1.3.2', command: 'bun' };
    expect(steadyStateArgs(bun, { memoryReducer: false })).toEqual([]);
  });
});
