import { describe, expect, it } from 'vitest';
import { summarize } from '../src/agent/files/summarize.js';
import { pageText, readsAsMdx, scanPageText } from '../src/markdown/pageText.js';

describe('pageText: one row of the dialect table each', () => {
  it('heading IDs: VitePress/Docusaurus {#id}, react.dev {/*id*/}, MkDocs { #id .class }', () => {
    expect(pageText('## Props {#props}\n')).toBe('## Props\n');
    expect(pageText('## Reference {/*reference*/}\n')).toBe('## Reference\n');
    expect(pageText('# First Steps { #first-steps .big }\n')).toBe('# First Steps\n');
    expect(pageText('Setext {#setext}\n===\n')).toBe('Setext\n===\n');
    expect(pageText('## Use {curly} braces\n')).toBe('## Use {curly} braces\n');
  });

  it('containers: the marker lines go, the title and the body stay', () => {
    expect(pageText('::: tip Read this\nBody\n:::\n')).toBe('Read this\nBody\n\n');
    expect(pageText(':::tip[Did you know?]\nBody\n:::\n')).toBe('Did you know?\nBody\n\n');
    expect(pageText('::: details\nHidden\n:::\n')).toBe('\nHidden\n\n');
    expect(pageText('::::note Outer\n:::tip\nIn\n:::\n::::\n')).toBe('Outer\n\nIn\n\n\n');
  });

  it('MkDocs admonitions and content tabs: the marker goes, the title stays, the body is de-indented', () => {
    expect(pageText('!!! note "Heads up"\n\n    Body text\n\nAfter\n')).toBe(
      'Heads up\n\nBody text\n\nAfter\n',
    );
    expect(pageText('??? warning\n    Folded\n')).toBe('\nFolded\n');
    expect(pageText('???+ tip "Open"\n    Shown\n')).toBe('Open\nShown\n');
    expect(pageText('=== "npm"\n\n    Run it\n')).toBe('npm\n\nRun it\n');
    // Code in the body stays code: de-indented as the body, its text unchanged.
    expect(pageText('!!! note\n\n        code {#x}\n')).toBe('\n\n    code {#x}\n');
  });

  it('MDX ESM: top-level import/export statements, multi-line until they end, only in MDX', () => {
    const page = 'import {\n  A,\n\n  B,\n} from "x";\nexport const n = 1;\n\nText\n';
    expect(pageText(page, true)).toBe('\n\n\n\n\n\n\nText\n');
    expect(pageText(page, false)).toBe(page);
    expect(pageText('> import x from "y"\n', true)).toBe('> import x from "y"\n');
  });

  it('MDX metadata: export const title and description (string literals)', () => {
    const page = scanPageText(
      "export const title = \"flex\";\nexport const description = 'Utilities \\'for\\' flex';\n\n# Examples\n",
      true,
    );
    expect(page.title).toBe('flex');
    expect(page.description).toBe("Utilities 'for' flex");
    expect(scanPageText('export const title = `a ${b}`;\n', true).title).toBeUndefined();
    expect(summarize('export const title = "flex";\n\n# Examples\n\nText.\n', true)).toEqual({
      title: 'flex',
      description: 'Text.',
    });
  });

  it('JSX: tags, attributes and expressions go; text children and code spans stay', () => {
    expect(
      pageText('<Tabs>\n\t<TabItem label="npm">Run {cmd} now</TabItem>\n</Tabs>\n', true),
    ).toBe('\n\tRun  now\n\n');
    expect(pageText('<Card\n  title="x"\n  icon={{ a: 1 }}\n>child</Card>\n', true)).toBe(
      '\n\n\nchild\n',
    );
    expect(pageText('Use `<Tabs>` and <https://x.y> here.\n', true)).toBe(
      'Use `<Tabs>` and <https://x.y> here.\n',
    );
    // In .md the tag is raw HTML, removed as such (`{…}` is text there).
    expect(pageText('<Badge text="New" /> in .md is {HTML}\n', false)).toBe(' in .md is {HTML}\n');
  });

  it('a page whose only change is at its very start still loses it (an import alone, a script alone)', () => {
    expect(pageText("import X from 'x';\n\nText\n", true)).toBe('\n\nText\n');
    expect(pageText('<script>x()</script>\nText\n', false)).toBe('\nText\n');
  });

  it('MDX comments: {/* … */} goes', () => {
    expect(pageText('Before {/* hidden } brace */} after\n', true)).toBe('Before  after\n');
    expect(pageText('{/* one\ntwo */}\nText\n', true)).toBe('\n\nText\n');
  });

  it('a raw <script> or <style> block (VitePress <script setup>) is code: its lines stay, empty', () => {
    const page =
      "<script setup>\nconst members = [{ name: 'Evan You' }]\n</script>\n\n# Team\n\n<style>\n.a { color: red }\n</style>\nSay <b>hello</b>.\n";
    expect(pageText(page, false)).toBe('\n\n\n\n# Team\n\n\n\n\nSay hello.\n');
    expect(pageText('<script>x()</script>\nText\n', false)).toBe('\nText\n');
    // Inside another HTML block, a script is still code.
    expect(pageText('<div>\n<script>\nx()\n</script>\n', false)).toBe('\n\n\n\n');
    // Not a script block: a tag name that only starts alike, or inside code.
    expect(pageText('<scripts>\nx\n', false)).toBe('\nx\n');
    for (const kept of ['```\n<script>\nx\n```\n', '    <script>\n'])
      expect(pageText(kept, false)).toBe(kept);
  });

  it('never inside code: fenced code keeps every dialect as written', () => {
    const page = '```mdx\nimport X from "x";\n## A {#a}\n:::\n<X />\n```\n';
    expect(pageText(page, true)).toBe(page);
    expect(pageText('    ## A {#a}\n    :::\n', false)).toBe('    ## A {#a}\n    :::\n');
  });

  it('a Docusaurus .md page that opens with an import is read as MDX', () => {
    expect(readsAsMdx(false, '\n\nimport Tabs from "@theme/Tabs";\n')).toBe(true);
    expect(readsAsMdx(false, '# Title\n\nimport x\n')).toBe(false);
    expect(readsAsMdx(true, '')).toBe(true);
  });

  it('titles: front matter, else export const title, else the first heading without its ID', () => {
    expect(summarize('## Props {#props}\n\nThe props.\n').title).toBe('Props');
    expect(summarize('# **First** Steps { #first-steps }\n').title).toBe('First Steps');
    expect(summarize('import A from "a";\n\n# Hello <A />\n', true).title).toBe('Hello');
  });
});
