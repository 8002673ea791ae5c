import { formErrors, pageBody, pageValues, readPageForm } from './status-page-form';

const service = (id: string, name: string) => ({ id, accountId: 'a', name, checks: [], created_at: '', updated_at: '' });
const services = [service('s-web', 'Web'), service('s-db', 'Database'), service('s-api', 'API')];

describe('the status page form', () => {
  it('orders cards and their services by the numbers given, drops removed and untouched new cards', () => {
    const sent = {
      name: 'Acme', url: 'acme', svcs: 's-web s-db s-api',
      'c0-id': 'card-1', 'c0-name': 'Second', 'c0-pos': '2', 'c0-s0': '2', 'c0-s1': '', 'c0-s2': '1',
      'c1-id': 'card-2', 'c1-name': 'Gone', 'c1-pos': '1', 'c1-remove': 'on', 'c1-s0': '1',
      'c2-id': '', 'c2-name': 'First', 'c2-pos': '1', 'c2-s1': '1',
      'c3-id': '', 'c3-name': '', 'c3-pos': '',
    };
    const { body, errors, cardKeys } = pageBody(readPageForm(sent, services), new Set(services.map((s) => s.id)));
    expect(errors).toEqual({});
    expect(cardKeys).toEqual(['c2', 'c0']);
    expect(body.cards).toEqual([{ name: 'First', services: [{ id: 's-db' }] }, { id: 'card-1', name: 'Second', services: [{ id: 's-api' }, { id: 's-web' }] }]);
  });

  it('refuses a position that is not a whole number and a numbered service that is gone', () => {
    const sent = { svcs: 's-web s-old', 'c0-id': '', 'c0-name': 'Core', 'c0-pos': 'first', 'c0-s0': '1.5', 'c0-s1': '1' };
    expect(pageBody(readPageForm(sent, services), new Set(['s-web'])).errors).toEqual({
      'c0-pos': 'A position is a whole number such as 1.',
      'c0-s0': 'A position is a whole number such as 1.',
      'c0-s1': 'This service is no longer there: leave its number empty.',
    });
  });

  it('puts the API’s error paths beside the form’s fields', () => {
    const errors = { name: 'name should not be empty', 'themeColors.dark.borderColor': 'bad', 'cards[1].name': 'no name', 'cards[0].services[0].id': 'unknown', themeColors: 'object' };
    expect(formErrors(errors, ['c3', 'c0'])).toEqual({ name: 'name should not be empty', 'd-borderColor': 'bad', 'c0-name': 'no name', 'c3-services': 'unknown', colors: 'object' });
  });

  it('shows a new page with the default palette as six-digit colours and one empty card', () => {
    const values = pageValues(null, services);
    expect(values.fields['l-bodyBackgroundColor']).toMatch(/^#[0-9a-f]{6}$/);
    expect(values.fields.defaultTheme).toBe('AUTO');
    expect(values.cards).toHaveLength(1);
    expect(values.serviceIds).toEqual(['s-web', 's-db', 's-api']);
  });
});
