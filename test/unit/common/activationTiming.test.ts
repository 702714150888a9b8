import * as assert from 'node:assert/strict';
import { ACTIVATION_LINE, ActivationTiming } from '../../../src/common/activationTiming';

describe('ActivationTiming', () => {
  it('logs each view once, on its first rows, in the shape the activation benchmark reads', () => {
    const lines: string[] = [];
    const timing = new ActivationTiming({ info: (m) => lines.push(m) }, performance.now() - 5);
    timing.firstRows('tasks', 0); // a view with nothing yet says nothing about the service's data
    timing.firstRows('tasks', 3);
    timing.firstRows('tasks', 7);
    timing.firstRows('files', 2);
    assert.equal(lines.length, 2);
    const tasks = ACTIVATION_LINE.exec(lines[0]);
    assert.ok(tasks, lines[0]);
    assert.equal(tasks[1], 'tasks');
    assert.equal(tasks[2], '3');
    assert.ok(Number(tasks[3]) >= 5);
    assert.equal(ACTIVATION_LINE.exec(lines[1])?.[1], 'files');
  });
});
