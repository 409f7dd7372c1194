import DOMPurify from 'dompurify';

/** What a tooltip may contain: text formatting and links, nothing that runs or loads. */
const ALLOWED_TAGS = ['a', 'b', 'br', 'code', 'em', 'i', 'li', 'ol', 'p', 'small', 'span', 'strong', 'ul'];
const ALLOWED_ATTR = ['href', 'title'];

let hooked = false;

/**
 * HTML the server sends for a tooltip, made safe to render: DOMPurify drops scripts, event handlers,
 * `javascript:` URLs and every tag or attribute not listed above; links open in a new tab without
 * giving it this page (`rel="noopener noreferrer"`).
 */
export function sanitizeTooltipHtml(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR });
}
