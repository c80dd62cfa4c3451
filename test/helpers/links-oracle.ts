import remarkParse from 'remark-parse';
import { unified } from 'unified';

const remark = unified().use(remarkParse);

interface MdNode {
  readonly type: string;
  readonly url?: string;
  readonly children?: readonly MdNode[];
  readonly position?: { readonly start: { readonly offset?: number; readonly line: number } };
}

/**
 * The link URLs remark-parse (CommonMark) finds: inline `link` nodes (autolinks left out: their source
 * starts with `<`) and `definition` nodes, sorted, as the multiset the scanner must reproduce.
 */
export function remarkLinkUrls(markdown: string): string[] {
  const urls: string[] = [];
  const stack: MdNode[] = [remark.parse(markdown) as MdNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'definition') urls.push(node.url!);
    else if (node.type === 'link' && markdown[node.position?.start.offset ?? -1] !== '<')
      urls.push(node.url!);
    if (node.children) stack.push(...node.children);
  }
  return urls.sort();
}
