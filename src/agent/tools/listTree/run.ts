import type { ListTreeOutput, TreeDirectoryItem, TreeFileItem } from './types.js';
import type { ListTreeInput } from './types.js';
import type { CallScope } from '../../source/callScope.js';
import type { ToolArgs } from '../defineTool.js';
import { pageOf, resumeListing } from '../../source/cursor.js';
import { directoryActions, fileActions } from '../../source/readActions.js';
import { statusFields } from '../../source/fileStatus.js';
import type { SourceState } from '../../source/state.js';
import { versionFields, versionsOf } from '../../source/versionOf.js';

/**
 * `list_tree`: the direct children of `parentPath`, directories first, then files; the root listing
 * (no `parentPath`, no `cursor`) also lists the versions.
 */
export function listTree(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<ListTreeInput>,
): ListTreeOutput {
  const { table } = state;
  // The cursor first: after a change, a directory that is gone is a stale cursor, not a missing one.
  const resumed = resumeListing(scope, state.cursors, table.activeContentRevision, args, {
    parentPath: '',
    limit: 50,
  });
  const { parentPath, limit } = resumed.binding.params;
  if (parentPath.startsWith('/') || parentPath.endsWith('/')) {
    throw scope.fail(
      'INVALID_ARGUMENT',
      `\`list_tree\`: \`parentPath\` is relative, with no leading or trailing \`/\` (\`""\` is the root), not ${JSON.stringify(parentPath)}.`,
    );
  }
  const children = table.children(parentPath);
  if (children === undefined) {
    if (table.byPath(parentPath) !== undefined) {
      throw scope.fail(
        'INVALID_ARGUMENT',
        `\`list_tree\`: \`${parentPath}\` is a file, not a directory. Read it with \`read_file\` { path }.`,
      );
    }
    const close = table.closestPaths(parentPath, 3);
    throw scope.fail(
      'NOT_FOUND',
      `\`list_tree\`: there is no directory \`${parentPath}\`.${close.length > 0 ? ` Close paths: ${close.map((p) => `\`${p}\``).join(', ')}.` : ''} List the root with \`parentPath: ""\`.`,
    );
  }
  const base = scope.actionBase;
  const entries: (TreeDirectoryItem | TreeFileItem)[] = [];
  const total = children.directories.length + children.files.length;
  const { from, to, nextCursor } = pageOf(scope, state.cursors, resumed, total, limit);
  for (let i = from; i < to; i++) {
    if (i < children.directories.length) {
      const dir = children.directories[i]!;
      entries.push({
        path: dir.path,
        title: dir.name,
        entryType: 'directory',
        fileCount: dir.fileCount,
        readActions: directoryActions(base, dir.path),
      });
    } else {
      const file = children.files[i - children.directories.length]!;
      entries.push({
        fileId: file.fileId,
        sourceFileId: file.kind === 'page' ? file.fileId : null,
        path: file.path,
        title: file.title,
        entryType: 'file',
        fileKind: file.kind === 'unavailable' ? 'page' : file.kind,
        ...statusFields(file),
        readActions: fileActions(base, file),
      });
    }
  }
  // The root listing (no parentPath, no cursor) also says which versions there are.
  const root = args['parentPath'] === undefined && args['cursor'] === undefined;
  return {
    activeContentRevision: table.activeContentRevision,
    ...versionFields(state),
    ...(root ? { versions: versionsOf(state) } : {}),
    items: entries,
    nextCursor,
  };
}
