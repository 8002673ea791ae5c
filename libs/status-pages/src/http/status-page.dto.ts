import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsDefined, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, ValidateBy, ValidateNested } from 'class-validator';
import { RequiredName } from '../../../http/src/dto-helpers';
import { RequiredObjects } from '../../../http/src/required-fields';
import { DEFAULT_THEME_COLORS, DEFAULT_THEMES, DefaultTheme, HEX_COLOR, THEME_COLOR_KEYS, ThemeColorKey, ThemeColorSet } from '../domain/theme';
import { EmptyAsNull, OptionalText, OptionalWebUrl } from './optional-fields';
import { ServiceDto } from './service.dto';

/** Lowercase letters, digits and hyphens, 3 to 63 of them. */
export const SLUG = /^[a-z0-9-]{3,63}$/;
/** A host name with at least two labels, each 1–63 letters, digits or inner hyphens; 253 characters at most. */
export const HOST_NAME = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export const MAX_CARDS = 50;
export const MAX_SERVICES_PER_CARD = 50;

/** A required light or dark colour set. */
const ColorSet = () => applyDecorators(Type(() => ThemeColorSetDto), ValidateNested(), IsObject(), IsDefined(), ApiProperty({ type: ThemeColorSetDto }));

/** At most `max` entries; says nothing of non-arrays, which IsArray reports. */
const MaxEntries = (max: number) =>
  ValidateBy({
    name: 'maxEntries',
    constraints: [max],
    validator: { validate: (value) => !Array.isArray(value) || value.length <= max, defaultMessage: () => `$property must have at most ${max} entries` },
  });

/** No service named twice in one card (a duplicate is a client mistake, not something to fold away). */
const DistinctServiceIds = () =>
  ValidateBy({
    name: 'distinctServiceIds',
    validator: {
      validate(value) {
        if (!Array.isArray(value)) return true;
        const ids = value.map((ref) => (ref && typeof ref === 'object' ? (ref as { id?: unknown }).id : undefined)).filter((id) => typeof id === 'string');
        return new Set(ids).size === ids.length;
      },
      defaultMessage: () => '$property must not name a service twice',
    },
  });

export class ServiceRefDto {
  @ApiProperty({ description: 'Id of a service of the account' })
  @IsDefined({ message: '$property is required' })
  @IsString()
  @IsNotEmpty()
  id!: string;
}

export class CardBodyDto {
  /** Names an existing card of the page to keep its id (and created_at); anything else is ignored. */
  @ApiPropertyOptional({ type: String, description: 'Id of an existing card of this page, to keep it; ignored otherwise' })
  @Allow()
  id?: unknown;

  @RequiredName('Core')
  name!: string;

  @ApiProperty({ type: [ServiceRefDto], maxItems: MAX_SERVICES_PER_CARD })
  @RequiredObjects(() => ServiceRefDto, '{id}', DistinctServiceIds(), MaxEntries(MAX_SERVICES_PER_CARD))
  services!: ServiceRefDto[];
}

/** The twelve colours of THEME_COLOR_KEYS, each decorated alike by the loop below. */
export class ThemeColorSetDto {}
export interface ThemeColorSetDto extends ThemeColorSet {}
for (const key of THEME_COLOR_KEYS) {
  Matches(HEX_COLOR, { message: '$property must be a colour #RGB or #RRGGBB' })(ThemeColorSetDto.prototype, key);
  ApiProperty({ type: String, pattern: HEX_COLOR.source, example: DEFAULT_THEME_COLORS.light[key] })(ThemeColorSetDto.prototype, key);
}

export class ThemeColorsDto {
  @ColorSet()
  light!: ThemeColorSetDto;

  @ColorSet()
  dark!: ThemeColorSetDto;
}

export class StatusPageBodyDto {
  @RequiredName('Acme status')
  name!: string;

  @ApiProperty({ pattern: SLUG.source, example: 'acme', description: 'Unique across all accounts' })
  @IsDefined({ message: '$property is required' })
  @IsString()
  @Matches(SLUG, { message: 'url must be 3 to 63 lowercase letters, digits or hyphens' })
  url!: string;

  @ApiProperty({ type: [CardBodyDto], maxItems: MAX_CARDS })
  @RequiredObjects(() => CardBodyDto, '{name, services}', MaxEntries(MAX_CARDS))
  cards!: CardBodyDto[];

  @OptionalText(500)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'status.acme.com', description: 'Unique across all accounts' })
  @EmptyAsNull()
  @IsOptional()
  @IsString()
  @Matches(HOST_NAME, { message: 'customDomain must be a host name such as status.example.com' })
  customDomain?: string | null;

  @OptionalWebUrl()
  logo?: string | null;

  @OptionalWebUrl()
  logoDark?: string | null;

  @OptionalWebUrl()
  favicon?: string | null;

  @OptionalWebUrl()
  redirectTo?: string | null;

  @ApiPropertyOptional({ enum: DEFAULT_THEMES, default: 'AUTO' })
  @IsOptional()
  @IsIn(DEFAULT_THEMES, { message: 'defaultTheme must be one of AUTO, LIGHT, DARK' })
  defaultTheme?: DefaultTheme | null;

  @ApiPropertyOptional({ type: ThemeColorsDto, nullable: true, description: "Unset: Vigil's default palette" })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ThemeColorsDto)
  themeColors?: ThemeColorsDto | null;
}

// ---- responses ----

export class ThemeColorsResponseDto {
  @ApiProperty({ type: ThemeColorSetDto, example: DEFAULT_THEME_COLORS.light }) light!: Record<ThemeColorKey, string>;
  @ApiProperty({ type: ThemeColorSetDto, example: DEFAULT_THEME_COLORS.dark }) dark!: Record<ThemeColorKey, string>;
}

export class CardDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [ServiceDto] }) services!: ServiceDto[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class StatusPageDto {
  @ApiProperty() id!: string;
  @ApiProperty() accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ format: 'uri', example: 'https://vigil.example.com/status/acme', description: 'Where the public page answers: https://{customDomain} once that domain is verified, else {VIGIL_PUBLIC_URL}/status/{url}' })
  publicUrl!: string;
  @ApiProperty({ type: String, nullable: true }) customDomain!: string | null;
  @ApiProperty({ type: String, nullable: true }) logo!: string | null;
  @ApiProperty({ type: String, nullable: true }) favicon!: string | null;
  @ApiProperty({ type: String, nullable: true }) redirectTo!: string | null;
  @ApiProperty({ enum: DEFAULT_THEMES }) defaultTheme!: DefaultTheme;
  @ApiProperty({ type: ThemeColorsResponseDto }) themeColors!: ThemeColorsResponseDto;
  @ApiProperty({ type: [CardDto] }) cards!: CardDto[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Open incidents, and those resolved in the last 7 days, touching a service on the cards; newest first; full Incident shape' })
  incidents!: object[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class StatusPageDetailDto extends StatusPageDto {
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: String, nullable: true }) logoDark!: string | null;
}

export class StatusPagePageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [StatusPageDto] }) entries!: StatusPageDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}
