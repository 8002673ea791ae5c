import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { EachObject } from '../../../http/src/dto-helpers';

export const MAX_BULK_SUBSCRIPTIONS = 100;

export class SubscriptionEntryDto {
  @ApiProperty({ enum: ['EMAIL', 'WEBHOOK'] })
  @IsDefined({ message: '$property is required' })
  @IsIn(['EMAIL', 'WEBHOOK'], { message: 'type must be EMAIL or WEBHOOK' })
  type!: 'EMAIL' | 'WEBHOOK';

  @ApiProperty({ example: 'ops@example.com', description: 'The email address, or the https URL of a WEBHOOK; an invalid one is skipped and counted' })
  @IsDefined({ message: '$property is required' })
  @IsString()
  config!: string;
}

export class BulkSubscriptionsDto {
  @ApiProperty({ type: [SubscriptionEntryDto], minItems: 1, maxItems: MAX_BULK_SUBSCRIPTIONS })
  @IsDefined({ message: '$property is required' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_SUBSCRIPTIONS)
  @EachObject('{type, config}')
  @ValidateNested({ each: true })
  @Type(() => SubscriptionEntryDto)
  subscriptions!: SubscriptionEntryDto[];

  @ApiPropertyOptional({ type: Boolean, nullable: true, default: false, description: 'true: the subscriptions are VERIFIED at once, without double opt-in' })
  @IsOptional()
  @IsBoolean()
  autoVerify?: boolean | null;
}

export class SubscriptionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['EMAIL', 'WEBHOOK'] }) type!: 'EMAIL' | 'WEBHOOK';
  @ApiProperty() address!: string;
  @ApiProperty({ enum: ['PENDING', 'VERIFIED'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class BulkResultDto {
  @ApiProperty({ description: 'Subscriptions created' }) created!: number;
  @ApiProperty({ description: 'Entries skipped: invalid addresses and duplicates (within the request or already subscribed)' }) skipped!: number;
  @ApiProperty({ enum: ['PENDING', 'VERIFIED'], description: 'Status of the created subscriptions' }) status!: string;
}
