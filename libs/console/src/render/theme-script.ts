/**
 * The status page form's progressive enhancement: as a colour input changes, the preview's shapes that draw
 * with it (`data-fill`, `data-stroke`) take the new colour. Without JavaScript the preview shows what was saved.
 */
export const THEME_SCRIPT = `(function () {
  'use strict';
  var inputs = document.querySelectorAll('input[data-preview]');
  function paint(input) {
    var name = input.getAttribute('data-preview');
    var value = input.value;
    if (!/^#[0-9a-fA-F]{6}$/.test(value)) return;
    document.querySelectorAll('[data-fill="' + name + '"]').forEach(function (shape) { shape.setAttribute('fill', value); });
    document.querySelectorAll('[data-stroke="' + name + '"]').forEach(function (shape) { shape.setAttribute('stroke', value); });
  }
  inputs.forEach(function (input) {
    input.addEventListener('input', function () { paint(input); });
    input.addEventListener('change', function () { paint(input); });
  });
})();
`;
