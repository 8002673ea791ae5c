/**
 * The passkey ceremony in the browser (the one part of the console that needs JavaScript), served as a
 * file so the CSP allows no inline script. Its buttons stay hidden where WebAuthn or scripts are missing.
 */
export const PASSKEYS_SCRIPT = `(function () {
  'use strict';
  if (!window.PublicKeyCredential) return;
  var enc = function (buf) { var s = ''; new Uint8Array(buf).forEach(function (b) { s += String.fromCharCode(b); }); return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); };
  var dec = function (text) { var s = atob(text.replace(/-/g, '+').replace(/_/g, '/')); var out = new Uint8Array(s.length); for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i); return out.buffer; };
  var token = document.querySelector('meta[name="csrf-token"]');
  var say = function (text) { var el = document.getElementById('passkey-status'); if (el) el.textContent = text; };
  var post = function (url, body) {
    return fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-csrf-token': token ? token.content : '' }, body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().catch(function () { return {}; }).then(function (j) { if (!r.ok) throw new Error(j.message || 'Something went wrong'); return j; }); });
  };
  var register = document.getElementById('passkey-register');
  if (register) {
    register.hidden = false;
    register.addEventListener('submit', function (event) {
      event.preventDefault();
      say('Follow the instructions of your browser…');
      post('/console/passkeys/registration-options').then(function (o) {
        o.challenge = dec(o.challenge);
        o.user.id = dec(o.user.id);
        o.excludeCredentials = (o.excludeCredentials || []).map(function (c) { return Object.assign({}, c, { id: dec(c.id) }); });
        return navigator.credentials.create({ publicKey: o });
      }).then(function (c) {
        var r = c.response;
        return post('/console/passkeys', { name: document.getElementById('passkey-name').value, response: { id: c.id, rawId: enc(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(),
          response: { clientDataJSON: enc(r.clientDataJSON), attestationObject: enc(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] } } });
      }).then(function () { window.location.assign('/console/account?notice=passkey'); }, function (error) { say(error.message); });
    });
  }
  var signIn = document.getElementById('passkey-sign-in');
  if (signIn) {
    signIn.hidden = false;
    signIn.addEventListener('click', function () {
      say('Follow the instructions of your browser…');
      post('/console/sign-in/passkey-options').then(function (o) {
        o.challenge = dec(o.challenge);
        return navigator.credentials.get({ publicKey: o });
      }).then(function (c) {
        var r = c.response;
        return post('/console/sign-in/passkey', { response: { id: c.id, rawId: enc(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(),
          response: { clientDataJSON: enc(r.clientDataJSON), authenticatorData: enc(r.authenticatorData), signature: enc(r.signature), userHandle: r.userHandle ? enc(r.userHandle) : undefined } } });
      }).then(function (j) { window.location.assign(j.location); }, function (error) { say(error.message); });
    });
  }
})();
`;
