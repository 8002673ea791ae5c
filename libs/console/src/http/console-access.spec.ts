import { EXCEPTION_FILTERS_METADATA } from '@nestjs/common/constants';
import { ConsoleModule } from '../console.module';
import { ConsoleAnswerFilter } from './console-access';
import { noticeOf } from './form-check';

describe('console controllers', () => {
  it('every one sends the answers ConsoleAccess throws (sign in first, a refused form): none becomes a 500', () => {
    const controllers: (new (...args: never[]) => unknown)[] = Reflect.getMetadata('controllers', ConsoleModule);
    expect(controllers.length).toBeGreaterThanOrEqual(12);
    for (const controller of controllers) {
      expect({ controller: controller.name, filters: Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, controller) }).toEqual({ controller: controller.name, filters: [ConsoleAnswerFilter] });
    }
  });
});

describe('form notices', () => {
  it('shows a notice the page names, and none for any other value (an inherited name included)', () => {
    const notices = { saved: 'Saved.' };
    expect(noticeOf(notices, 'saved')).toBe('Saved.');
    expect(noticeOf(notices, 'constructor')).toBeUndefined();
    expect(noticeOf(notices, '__proto__')).toBeUndefined();
    expect(noticeOf(notices, ['saved'])).toBeUndefined();
  });
});
