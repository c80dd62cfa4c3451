export { KNOWLEDGE_TOOL_ERROR_CODES, KNOWLEDGE_TOOL_ERROR_STATUS } from './codes.js';
export { isKnowledgeToolError, KnowledgeToolError } from './KnowledgeToolError.js';
