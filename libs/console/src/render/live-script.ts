/**
 * The overview's progressive enhancement: on each `change` event of /console/events the page fetches itself
 * and swaps its live region; without JavaScript (or EventSource) a reload shows the same.
 */
export const LIVE_SCRIPT = `(function () {
  'use strict';
  var live = document.getElementById('live');
  if (!live || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var source = new EventSource(live.getAttribute('data-events'));
  var busy = false;
  source.addEventListener('change', function () {
    if (busy) return;
    busy = true;
    fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } }).then(function (r) {
      if (!r.ok) throw new Error('status ' + r.status);
      return r.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('live');
      if (fresh) { live.innerHTML = fresh.innerHTML; live.setAttribute('data-version', fresh.getAttribute('data-version') || ''); }
    }).catch(function () { /* the next change or a reload tries again */ }).then(function () { busy = false; });
  });
})();
`;
