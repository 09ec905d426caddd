// The marks the document pipeline and the page's scripts share: the attribute on <html> that
// says the page's script runs (React has hydrated, or the script of a page without React has
// started), and the element that holds React Router's modules until the first paint. app.css
// keys its not-yet-ready look on the same attributes (markers.test.ts checks it).

/** `<html data-hydrated="true">`: React runs the page (app/root.tsx sets it). */
export const HYDRATED = 'hydrated'
/** `<html data-enhanced="true">`: the script of a page without React runs (enhance.client.ts). */
export const ENHANCED = 'enhanced'

/** The attribute of a `dataset` key: `hydrated` → `data-hydrated`. */
export const attributeOf = (key: string) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`

/**
 * Id of the inert element that holds React Router's module script until after the first paint;
 * its `data-preload` lists the modules to preload then, separated by spaces.
 */
export const DEFERRED_MODULES_ID = 'app-modules'

/** Module preloads added per step once the page has painted (load-modules-after-paint.client.ts). */
export const PRELOADS_PER_STEP = 4
