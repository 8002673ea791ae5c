import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Account, AccountContext } from '../../../http/src/account-context';
import { actorOf } from '../../../http/src/params';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PingKeyDoc } from '../read/account-ping-keys.projection';
import { PingKeys } from '../read/ping-keys';

export class PingKeyDto {
  @ApiProperty({ example: 'q3JcX0bq1T8h2pW5zLrN4A', description: '22 URL-safe characters' }) pingKey!: string;
  @ApiProperty({ example: 'https://vigil.example/ping/q3JcX0bq1T8h2pW5zLrN4A', description: 'append /{slug} of a check' }) pingUrl!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** The account ping key of slug URLs (contract §4.1). */
@ApiTags('accounts')
@ApiBearerAuth()
@Controller('v1/accounts/ping-key')
export class PingKeyController {
  constructor(
    private readonly keys: PingKeys,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The account ping key (issued on first use)' })
  @ApiOkResponse({ type: PingKeyDto })
  async show(@Account() account: AccountContext): Promise<PingKeyDto> {
    return this.view(await this.keys.show(account.accountId, actorOf(account)));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the account ping key: slug URLs with the old key answer 404 from now on' })
  @ApiOkResponse({ type: PingKeyDto })
  async rotate(@Account() account: AccountContext): Promise<PingKeyDto> {
    return this.view(await this.keys.rotate(account.accountId, actorOf(account)));
  }

  private view(doc: PingKeyDoc): PingKeyDto {
    return { pingKey: doc.pingKey, pingUrl: `${this.config.publicUrl}/ping/${doc.pingKey}`, updated_at: doc.updated_at };
  }
}
