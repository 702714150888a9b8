// The rows of stored content (files and artifacts), with a stand-in `vscode`: each reads as its
// name with its facts, is iconed by the file icon theme for that name, and names its kind to
// screen readers; a newer record redraws the row only when what it shows changed.
import './vscodeStub';
import * as assert from 'node:assert/strict';
import type { ArtifactRecord, FileRecord } from '../../../src/api/types';
import {
  artifactDescriptionParts,
  artifactTooltip,
  fileDescriptionParts,
  fileTooltip,
} from '../../../src/views/format';
import { ArtifactNode, FileNode, RunNode } from '../../../src/views/nodes';
import { l10n } from './vscodeStub';

const t = l10n.t;
const en = { locale: 'en' };

describe('views/nodes: file and artifact rows', () => {
  it('a file row: its name, purpose · size · time, the theme icon for its name, and "File" for screen readers', () => {
    const file: FileRecord = {
      id: 'file_1',
      filename: 'report.pdf',
      purpose: 'task_input',
      bytes: 2048,
      created_at: '2026-01-02T03:04:05Z',
    };
    const node = new FileNode(file);
    const parts = fileDescriptionParts(file, en);
    assert.equal(node.label, 'report.pdf');
    assert.equal(parts[0], 'task_input');
    assert.equal(node.description, parts.join(' · '));
    assert.equal(node.tooltip, fileTooltip(file, t, en));
    assert.equal(String(node.resourceUri), 'agent-runtime-item:/report.pdf');
    assert.equal((node.iconPath as { id: string }).id, 'file');
    assert.deepEqual(node.accessibilityInformation, { label: ['report.pdf', 'File', ...parts].join(', ') });
    assert.equal(node.update({ ...file, object: 'file' }), false, 'a field the row does not show');
    assert.equal(node.update({ ...file, filename: 'renamed.pdf' }), true);
    assert.equal(String(node.resourceUri), 'agent-runtime-item:/renamed.pdf');
  });

  it('an artifact row: its name, size · time, the theme icon for its name, and "Artifact" for screen readers', () => {
    const artifact: ArtifactRecord = {
      id: 'art_1',
      name: 'out/summary.md',
      bytes: 10,
      created_at: '2026-01-02T03:04:05Z',
    };
    const node = new ArtifactNode(artifact, new RunNode({ id: 'run_1', status: 'completed' }));
    const parts = artifactDescriptionParts(artifact, en);
    assert.equal(node.label, 'out/summary.md');
    assert.equal(node.description, parts.join(' · '));
    assert.equal(node.tooltip, artifactTooltip(artifact, t, en));
    assert.equal(
      String(node.resourceUri),
      'agent-runtime-item:/out_summary.md',
      'a path is one name to the icon theme',
    );
    assert.equal((node.iconPath as { id: string }).id, 'file');
    assert.deepEqual(node.accessibilityInformation, { label: ['out/summary.md', 'Artifact', ...parts].join(', ') });
    assert.equal(node.update({ ...artifact, bytes: 20 }), true);
  });
});
