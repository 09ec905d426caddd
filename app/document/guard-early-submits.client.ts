// Written into <head> of every React page as an inline script (paint-first.server.ts). A form
// sent before React has taken over is sent by the browser, as the page was served. React must
// not see that submit: while hydrating it replays such an event to the form's handler, which
// would send the form a second time (a one-time code then reads as already used). Until the root
// marks the page hydrated, a submit stops here, on the window before React's listeners on the
// document, and the browser's own submission goes ahead.
import { HYDRATED } from './markers.ts'

window.addEventListener(
  'submit',
  (event) => {
    if (document.documentElement.dataset[HYDRATED] !== 'true') event.stopPropagation()
  },
  true,
)
