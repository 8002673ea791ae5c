import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Trim } from '../../../http/src/dto-helpers';

export class ServiceBodyDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'API' })
  @IsDefined({ message: '$property is required' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;
}

export class CheckRefDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class ServiceDto {
  @ApiProperty() id!: string;
  @ApiProperty() accountId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: [CheckRefDto] }) checks!: CheckRefDto[];
}

export class ServicePageDto {
  @ApiProperty() length!: number;
  @ApiProperty({ type: [ServiceDto] }) entries!: ServiceDto[];
  @ApiProperty({ type: String, nullable: true }) nextId!: string | null;
}
