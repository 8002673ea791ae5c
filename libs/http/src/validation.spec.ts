import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ValidationError } from '../../core/src/errors';
import { Trim } from './dto-helpers';
import { BodyValidationPipe } from './validation';

class RefDto {
  @IsString()
  id!: string;
}

class CardDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  name!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RefDto)
  services!: RefDto[];
}

class PageDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;

  @IsOptional()
  @IsIn(['AUTO', 'LIGHT', 'DARK'])
  defaultTheme?: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => CardDto)
  cards!: CardDto[];
}

const pipe = new BodyValidationPipe();
const asBody = { type: 'body' as const, metatype: PageDto, data: undefined };

async function violations(value: unknown): Promise<{ path: string; message: string }[]> {
  try {
    await pipe.transform(value, asBody);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).statusCode).toBe(400);
    return (error as ValidationError).details;
  }
  throw new Error('expected a validation error');
}

describe('BodyValidationPipe', () => {
  it('returns the DTO instance, trimmed, without unknown fields', async () => {
    const result = await pipe.transform(
      { name: '  Main  ', id: 'ignored', extra: 1, cards: [{ name: 'A', services: [{ id: 's1', name: '' }] }] },
      asBody,
    );
    expect(result).toBeInstanceOf(PageDto);
    expect(result).toEqual({ name: 'Main', cards: [{ name: 'A', services: [{ id: 's1' }] }] });
  });

  it('lists every violated rule, with paths into nested arrays and objects', async () => {
    const details = await violations({
      name: '   ',
      defaultTheme: 'PINK',
      cards: [{ name: 'ok', services: [{ id: 's1' }, { id: 7 }] }, { name: '', services: 'nope' }],
    });
    const paths = details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'defaultTheme', 'cards[0].services[1].id', 'cards[1].name', 'cards[1].services']));
    for (const detail of details) expect(detail.message).toEqual(expect.any(String));
    // Nothing about the valid parts.
    expect(paths).not.toContain('cards[0].name');
    expect(paths).not.toContain('cards[0].services[0].id');
  });

  it('reports each rule a field breaks', async () => {
    const details = await violations({ name: 'x'.repeat(256), cards: [] });
    expect(details.filter((d) => d.path === 'name')).toHaveLength(1);
    expect(details.filter((d) => d.path === 'cards')).toHaveLength(1);
    expect(details.find((d) => d.path === 'name')?.message).toMatch(/255/);
  });

  // Issue 33, item 11: a missing field named once, not once per rule its absent value breaks.
  it('reports a missing or null required field once, as "x is required", at any depth', async () => {
    expect(await violations({ cards: [{ services: [{}] }] })).toEqual([
      { path: 'name', message: 'name is required' },
      { path: 'cards[0].name', message: 'name is required' },
      { path: 'cards[0].services[0].id', message: 'id is required' },
    ]);
    expect(await violations({ name: null, cards: null })).toEqual([
      { path: 'name', message: 'name is required' },
      { path: 'cards', message: 'cards is required' },
    ]);
  });

  it.each([undefined, null, 'text', 42, true, []])('refuses a body that is not an object (%j)', async (value) => {
    const details = await violations(value);
    expect(details).toEqual([{ path: '', message: 'expected a JSON object' }]);
  });

  // Issue 23, item 2: class-transformer walked every unknown key, so deep JSON in one was a stack overflow (500).
  it('never walks unknown fields, at the top or inside nested DTOs', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const result = await pipe.transform({ name: 'Main', extra: deep, cards: [{ name: 'A', extra: deep, services: [{ id: 's1', extra: deep }] }] }, asBody);
    expect(result).toEqual({ name: 'Main', cards: [{ name: 'A', services: [{ id: 's1' }] }] });
  });

  it('leaves query and path parameters alone', async () => {
    expect(await pipe.transform('abc', { type: 'query', metatype: String, data: 'limit' })).toBe('abc');
    expect(await pipe.transform('abc', { type: 'param', metatype: String, data: 'id' })).toBe('abc');
  });

  it('leaves bodies without a DTO class alone', async () => {
    expect(await pipe.transform({ any: 1 }, { type: 'body', metatype: Object, data: undefined })).toEqual({ any: 1 });
  });
});
