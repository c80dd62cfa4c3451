/**
 * `knowledge-kit/agent/adapters`: shape functions from tool definitions to each runtime's tool format
 * (OpenAI Responses and Chat Completions, Anthropic, the AI SDK, LangChain), citable document
 * blocks, and embedders for hybrid search from the AI SDK's embedding models and OpenAI's embeddings
 * client. No SDK is imported: the LangChain and AI SDK adapters take the SDK's own helper as an
 * argument, and the OpenAI embedder takes the caller's client.
 *
 * @example
 * ```ts
 * import { knowledgeTools } from 'knowledge-kit/agent';
 * import { toOpenAIResponsesTools } from 'knowledge-kit/agent/adapters';
 * const tools = toOpenAIResponsesTools(knowledgeTools(source));
 * ```
 *
 * @module
 */
export type { CitableFile } from './citableRead.js';
export type { ToolParametersSchema } from './strictSchema.js';
export { toStrictSchema } from './strictSchema.js';
export { toAISDKTools } from './toAISDKTools.js';
export type { AISDKTool, AISDKToolsOptions } from './toAISDKTools.js';
export { toAnthropicDocument, toAnthropicSearchResult } from './toAnthropicDocument.js';
export type { AnthropicDocumentBlock, AnthropicSearchResultBlock } from './toAnthropicDocument.js';
export { toAnthropicToolResult, toAnthropicTools } from './toAnthropicTools.js';
export type { AnthropicToolParam, AnthropicToolResultBlock } from './toAnthropicTools.js';
export { toLangChainTools } from './toLangChainTools.js';
export type { LangChainToolConfig, LangChainToolFactory } from './toLangChainTools.js';
export { toOpenAIChatTools } from './toOpenAIChatTools.js';
export type { OpenAIChatFunctionTool } from './toOpenAIChatTools.js';
export { toOpenAIResponsesTools } from './toOpenAIResponsesTools.js';
export type { OpenAIResponsesFunctionTool, OpenAIToolsOptions } from './toOpenAIResponsesTools.js';
export { fromAISDKEmbeddingModel } from './fromAISDKEmbeddingModel.js';
export type { AISDKEmbedMany, AISDKEmbeddingOptions } from './fromAISDKEmbeddingModel.js';
export { fromOpenAIEmbeddings } from './fromOpenAIEmbeddings.js';
export type { OpenAIEmbeddingsClient, OpenAIEmbeddingsOptions } from './fromOpenAIEmbeddings.js';
