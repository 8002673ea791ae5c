import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
import { RequiredObjects } from '../../../http/src/required-fields';

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
  @RequiredObjects(() => SubscriptionEntryDto, '{type, config}', ArrayMaxSize(MAX_BULK_SUBSCRIPTIONS), ArrayMinSize(1))
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
