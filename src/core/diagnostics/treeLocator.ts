import { findNodeAtLocation, type Node as JsoncNode } from 'jsonc-parser'; // ESM build: esbuild cannot bundle the UMD 'main' (dynamic requires)
import { pathKey, type Locate, type Located } from './locate';

/** Locator over a jsonc-parser tree (used only for text with syntax errors, where the tree is built anyway). */
export function treeLocator(root: JsoncNode | undefined): Locate {
  return (paths) => {
    const out = new Map<string, Located>();
    if (!root) return out;
    for (const path of paths) {
      const node = path.length === 0 ? root : findNodeAtLocation(root, [...path]);
      if (!node) continue;
      const keyNode = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      out.set(
        pathKey(path),
        keyNode ? { start: node.offset, end: node.offset + node.length, keyStart: keyNode.offset, keyEnd: keyNode.offset + keyNode.length } : { start: node.offset, end: node.offset + node.length },
      );
    }
    return out;
  };
}
