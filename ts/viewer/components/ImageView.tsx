// ImageView shows an image block. Stored bytes become a data: URL of an image type (never
// another type, so the data cannot become a page); an image by URL is a link, not fetched,
// so that opening a session does not call out to other sites.
import type { Block } from '../api-types';
import { mediaType, webUrl } from '../safe-url';

export function ImageView({ block }: { block: Block }) {
  const source = (block.source ?? {}) as { type?: string; media_type?: string; data?: string; url?: string };
  if (source.type === 'base64' && typeof source.data === 'string') {
    const given = mediaType(source.media_type, 'image/png');
    const type = given.startsWith('image/') ? given : 'image/png';
    return (
      <figure class="image">
        <img data-testid="image" src={`data:${type};base64,${source.data}`} alt={`image (${type})`} loading="lazy" />
        <figcaption>{type} · {Math.round((source.data.length * 3) / 4 / 1024)} KiB</figcaption>
      </figure>
    );
  }
  if (source.type === 'url' && typeof source.url === 'string') {
    return (
      <p class="image-link">
        Image at <a href={webUrl(source.url)} rel="noreferrer noopener" target="_blank">{source.url}</a>
      </p>
    );
  }
  return <p class="image-missing">[image: {source.type ?? 'no source'}]</p>;
}
