import { ConfigError, loadConfig } from '../../platform/src/config';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('AI agent configuration', () => {
  const openai = { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: 'http://127.0.0.1:11434/v1', AI_API_KEY: 'ollama', AI_MODEL: 'llama3.1' };

  it('defaults to the builtin provider and needs nothing else', () => {
    expect(loadConfig({})).toMatchObject({ aiProvider: 'builtin', aiBaseUrl: null, aiApiKey: null, aiModel: null });
    expect(loadConfig({ AI_PROVIDER: ' Builtin ' }).aiProvider).toBe('builtin');
  });

  it('reads the openai-compatible settings, without a trailing slash on the base URL', () => {
    expect(loadConfig({ ...openai, AI_BASE_URL: 'https://api.openai.com/v1/' })).toMatchObject({
      aiProvider: 'openai-compatible',
      aiBaseUrl: 'https://api.openai.com/v1',
      aiApiKey: 'ollama',
      aiModel: 'llama3.1',
    });
  });

  it('refuses an unknown provider', () => {
    expect(configError({ AI_PROVIDER: 'anthropic' }).variable).toBe('AI_PROVIDER');
  });

  it.each(['AI_BASE_URL', 'AI_API_KEY', 'AI_MODEL'])('needs %s for openai-compatible', (name) => {
    const error = configError({ ...openai, [name]: '' });
    expect(error.variable).toBe(name);
    expect(error.message).toContain('must be set when AI_PROVIDER is openai-compatible');
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(configError({ ...openai, AI_BASE_URL: 'ftp://models.example' }).variable).toBe('AI_BASE_URL');
    expect(configError({ ...openai, AI_BASE_URL: 'not a url' }).variable).toBe('AI_BASE_URL');
  });
});
