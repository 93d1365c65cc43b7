// How the render report names an element (a problem's `selector`): from the element up to the
// nearest ancestor with a unique id, or to body, each step by its position among its siblings.
// Plain JavaScript source for scripts that run in the page's isolated world, so every finding
// of a report (fitted text, codes, clipped content, samples) names elements the same way.

/** A function expression `(element) => string`, cut to 1,000 characters. */
export const SELECTOR_OF = `(element) => {
    const parts = [];
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && document.getElementById(node.id) === node) { parts.unshift('#' + CSS.escape(node.id)); break; }
      const parent = node.parentElement;
      if (!parent || node === document.body) { parts.unshift(node.localName); break; }
      let index = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index++;
      parts.unshift(node.localName + ':nth-child(' + index + ')');
    }
    return parts.join(' > ').slice(0, 1000);
  }`;
