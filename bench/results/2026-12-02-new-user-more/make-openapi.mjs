// make-openapi.mjs: writes an OpenAPI document of ~60 KB to stdout (deterministic), with one
// mapping that repeats a key deep inside one of its schemas.
const resources = ['order', 'customer', 'invoice', 'product', 'shipment', 'coupon', 'review', 'warehouse', 'supplier', 'refund', 'payment', 'cart'];
const out = ['openapi: 3.0.3', 'info:', '  title: Storefront API', '  version: "2.14.1"', '  description: |', '    The storefront\'s public API.', '    Every response is JSON; errors follow RFC 7807.', 'servers:', '  - url: https://api.example.com/v2', '    description: production', '  - {url: "https://staging.example.com/v2", description: staging}', 'paths:'];
const cap = (s) => s[0].toUpperCase() + s.slice(1);
for (const r of resources) {
  const R = cap(r);
  out.push(`  /${r}s:`, '    get:', `      operationId: list${R}s`, `      summary: List ${r}s, newest first`, '      tags: [' + r + ']', '      parameters:',
    '        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 200, default: 50}}',
    '        - name: cursor', '          in: query', '          required: false', '          schema: {type: string}',
    '      responses:', "        '200':", `          description: A page of ${r}s`, '          content:', '            application/json:', '              schema:', '                type: object',
    '                properties:', '                  items:', '                    type: array', `                    items: {$ref: '#/components/schemas/${R}'}`, '                  next: {type: string, nullable: true}',
    "        '401': {$ref: '#/components/responses/Unauthorized'}",
    '    post:', `      operationId: create${R}`, '      requestBody:', '        required: true', '        content:', '          application/json:', `            schema: {$ref: '#/components/schemas/${R}Input'}`,
    '      responses:', "        '201':", `          description: The new ${r}`, '          content:', '            application/json:', `              schema: {$ref: '#/components/schemas/${R}'}`, "        '422': {$ref: '#/components/responses/Invalid'}",
    `  /${r}s/{id}:`, '    parameters:', '      - {name: id, in: path, required: true, schema: {type: string, format: uuid}}', '    get:', `      operationId: get${R}`,
    '      responses:', "        '200':", `          description: The ${r}`, '          content:', '            application/json:', `              schema: {$ref: '#/components/schemas/${R}'}`, "        '404': {$ref: '#/components/responses/NotFound'}",
    '    delete:', `      operationId: delete${R}`, '      responses:', "        '204': {description: Deleted}", "        '404': {$ref: '#/components/responses/NotFound'}");
}
out.push('components:', '  responses:');
for (const [n, d] of [['Unauthorized', 'No valid token'], ['NotFound', 'No such resource'], ['Invalid', 'The body does not validate']])
  out.push(`    ${n}:`, `      description: ${d}`, '      content:', '        application/problem+json:', "          schema: {$ref: '#/components/schemas/Problem'}");
out.push('  schemas:', '    Problem:', '      type: object', '      required: [type, title]', '      properties:', '        type: {type: string, format: uri}', '        title: {type: string}', '        detail: {type: string}');
resources.forEach((r, i) => {
  const R = cap(r);
  const fields = ['id', 'created_at', 'updated_at', 'status', 'notes', 'owner', 'total', 'currency', 'tags', 'metadata'];
  out.push(`    ${R}:`, '      type: object', '      required: [id, created_at, status]', '      properties:');
  for (const f of fields) {
    out.push(`        ${f}:`);
    if (f === 'id') out.push('          type: string', '          format: uuid', '          readOnly: true');
    else if (f.endsWith('_at')) out.push('          type: string', '          format: date-time');
    else if (f === 'status') out.push('          type: string', `          enum: [draft, open, ${r === 'refund' ? 'refunded' : 'closed'}, archived]`);
    else if (f === 'total') out.push('          type: number', '          minimum: 0', "          example: 19.99");
    else if (f === 'tags') out.push('          type: array', '          items: {type: string, maxLength: 32}', '          uniqueItems: true');
    else if (f === 'metadata') out.push('          type: object', '          additionalProperties: {type: string}');
    else out.push('          type: string', `          description: "The ${r}'s ${f}"`);
    // the mistake: one schema says its description twice
    if (i === 7 && f === 'notes') out.push('          description: Free text, shown to staff only');
  }
  out.push(`    ${R}Input:`, '      type: object', '      properties:', '        notes: {type: string}', '        tags:', '          type: array', '          items: {type: string}');
});
process.stdout.write(out.join('\n') + '\n');
