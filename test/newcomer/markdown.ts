export interface ShellBlock {
  /** The nearest heading above the block (the step's name). */
  title: string;
  code: string;
}

/**
 * The `sh` (or `bash`) fenced blocks of one level-2 section of a Markdown file, in order, with the heading
 * each sits under. The section runs from `## {heading}` to the next level-2 heading; its `###` steps are
 * part of it, so adding a step is adding a heading and a block.
 */
export function shellBlocks(markdown: string, heading: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) throw new Error(`no "## ${heading}" section`);
  const blocks: ShellBlock[] = [];
  let title = heading;
  let fence: string[] | null = null;
  for (const line of lines.slice(start + 1)) {
    if (fence === null && /^## /.test(line)) break;
    if (fence === null && /^#{3,6} /.test(line)) title = line.replace(/^#+ /, '').trim();
    else if (fence === null && /^```(sh|bash)\s*$/.test(line)) fence = [];
    else if (fence !== null && /^```\s*$/.test(line)) {
      blocks.push({ title, code: fence.join('\n') });
      fence = null;
    } else if (fence !== null) fence.push(line);
  }
  return blocks;
}

/** One bash script running the blocks in order; each step announces itself, so a failure names it. */
export function sessionScript(blocks: readonly ShellBlock[], rewrite: (code: string) => string = (code) => code): string {
  return [
    'set -euo pipefail',
    ...blocks.map((block, index) => `echo ${JSON.stringify(`== step ${index + 1}: ${block.title}`)}\n${rewrite(block.code)}`),
  ].join('\n');
}
