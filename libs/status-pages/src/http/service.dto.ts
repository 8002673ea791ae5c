import { ApiProperty } from '@nestjs/swagger';
import { RequiredName } from '../../../http/src/dto-helpers';
import { OptionalText } from './optional-fields';

export const MAX_SERVICE_DESCRIPTION = 500;

export class ServiceBodyDto {
  @RequiredName('API')
  name!: string;

  @OptionalText(MAX_SERVICE_DESCRIPTION, { example: 'The public REST API and webhooks', description: 'Shown under the name on status pages; left out or empty: none' })
  description?: string | null;
}

export class CheckRefDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class ServiceDto {
  @ApiProperty() id!: string;
  @ApiProperty() accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true, maxLength: MAX_SERVICE_DESCRIPTION }) description!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: [CheckRefDto] }) checks!: CheckRefDto[];
}

export class ServicePageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [ServiceDto] }) entries!: ServiceDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}
