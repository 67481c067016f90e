// DocumentView shows a document block: a PDF from stored bytes as a download link (browsers
// refuse to open data: URLs as pages), text as text, a URL as a link.
import type { Block } from '../api-types';
import { mediaType, webUrl } from '../safe-url';
import { Blocks } from './Blocks';
import { LongText } from './LongText';

export function DocumentView({ block }: { block: Block }) {
  const source = (block.source ?? {}) as { type?: string; media_type?: string; data?: string; url?: string; content?: unknown };
  const title = typeof block.title === 'string' && block.title ? block.title : 'document';
  let body;
  if (source.type === 'base64' && typeof source.data === 'string') {
    // Only a PDF keeps its type: other bytes download as bytes, never as a page (text/html).
    const type = mediaType(source.media_type, 'application/pdf') === 'application/pdf' ? 'application/pdf' : 'application/octet-stream';
    const size = Math.round((source.data.length * 3) / 4 / 1024);
    body = (
      <a href={`data:${type};base64,${source.data}`} download={type === 'application/pdf' ? title.replace(/\.pdf$/i, '') + '.pdf' : title}>
        Download {title} ({type}, {size} KiB)
      </a>
    );
  } else if (source.type === 'text' && typeof source.data === 'string') {
    body = <LongText text={source.data} />;
  } else if (source.type === 'url' && typeof source.url === 'string') {
    body = <a href={webUrl(source.url)} rel="noreferrer noopener" target="_blank">{source.url}</a>;
  } else if (source.type === 'content' && Array.isArray(source.content)) {
    body = <Blocks blocks={source.content as Block[]} />;
  } else {
    body = <span>[{source.type ?? 'no source'}]</span>;
  }
  return (
    <div class="document" data-testid="document">
      <div class="document-title">📄 {title}</div>
      {body}
    </div>
  );
}
