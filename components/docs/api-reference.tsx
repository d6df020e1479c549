// The API reference (/docs), rendered on the server from the OpenAPI document: plain HTML (no script of
// its own; examples fold with <details>), endpoints grouped by tag, each with its method and path,
// parameters, request body, answers, error codes and a curl command; then the webhooks and every schema.
import type { ReactNode } from 'react'
import type { OpenApiDocument } from '@/lib/openapi/api-document'
import { constraintsOf, curlOf, markdownBlocks, refName, typeLabel, type Inline } from '@/lib/openapi/reference-text'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON Schema, walked by whichever keywords it has
type Json = Record<string, any>

const anchorOf = (name: string) => `schema-${name}`

function Text({ parts }: { parts: Inline[] }) {
  return <>{parts.map((p, i) => (typeof p === 'string' ? p : <code key={i}>{p.code}</code>))}</>
}

function Markdown({ text }: { text?: string }) {
  if (!text) return null
  return (
    <>
      {markdownBlocks(text).map((block, i) =>
        'paragraph' in block ? (
          <p key={i}>
            <Text parts={block.paragraph} />
          </p>
        ) : (
          <table key={i}>
            <thead>
              <tr>
                {block.table.head.map((cell, j) => (
                  <th key={j}>
                    <Text parts={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.table.rows.map((row, j) => (
                <tr key={j}>
                  {row.map((cell, k) => (
                    <td key={k}>
                      <Text parts={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ),
      )}
    </>
  )
}

/** a type, its component names linked to their schemas */
function TypeOf({ schema }: { schema: Json }) {
  const refs: string[] = []
  const collect = (s: Json | undefined) => {
    if (!s) return
    if (s.$ref) refs.push(refName(s.$ref))
    for (const k of ['oneOf', 'anyOf', 'allOf', 'prefixItems']) if (Array.isArray(s[k])) s[k].forEach(collect)
    if (s.items && typeof s.items === 'object') collect(s.items)
  }
  collect(schema)
  const label = typeLabel(schema)
  if (!refs.length) return <span className="docs-type">{label}</span>
  // the label with each component name a link
  const parts: ReactNode[] = []
  let rest = label
  for (const name of refs) {
    const at = rest.indexOf(name)
    if (at < 0) continue
    parts.push(
      rest.slice(0, at),
      <a key={parts.length} href={`#${anchorOf(name)}`}>
        {name}
      </a>,
    )
    rest = rest.slice(at + name.length)
  }
  parts.push(rest)
  return <span className="docs-type">{parts}</span>
}

/** the object's fields (nested objects and arrays of objects unfolded; components linked, not repeated) */
function Fields({ schema }: { schema: Json }) {
  const object = schema.items && schema.type === 'array' ? schema.items : schema
  const properties: Record<string, Json> = object.properties ?? {}
  const required = new Set<string>(object.required ?? [])
  if (!Object.keys(properties).length) return null
  return (
    <ul className="docs-fields">
      {Object.entries(properties).map(([name, p]) => {
        const nested = !p.$ref && (p.properties || (p.type === 'array' && p.items?.properties))
        const constraints = constraintsOf(p)
        return (
          <li key={name}>
            <span className="docs-name">{name}</span> <TypeOf schema={p} />
            {required.has(name) ? <span className="docs-required"> required</span> : null}
            {p.description ? <p className="docs-note">{<Text parts={markdownInline(p.description)} />}</p> : null}
            {constraints.length ? <p className="docs-note">{constraints.join('; ')}</p> : null}
            {nested ? <Fields schema={p} /> : null}
          </li>
        )
      })}
    </ul>
  )
}

const markdownInline = (text: string): Inline[] => {
  const blocks = markdownBlocks(text)
  return blocks.flatMap((b, i) => ('paragraph' in b ? (i ? [' ', ...b.paragraph] : b.paragraph) : []))
}

function Examples({ examples }: { examples?: Record<string, { summary?: string; value: unknown }> }) {
  if (!examples) return null
  return (
    <>
      {Object.entries(examples).map(([key, e]) => (
        <details key={key}>
          <summary>Example: {e.summary ?? key}</summary>
          <pre>
            <code>{JSON.stringify(e.value, null, 2)}</code>
          </pre>
        </details>
      ))}
    </>
  )
}

/** an operation's answer, its component reference resolved */
function resolve(document: OpenApiDocument, response: Json): Json {
  if (!response.$ref) return response
  return (document.components as Json).responses[refName(response.$ref)]
}

/** the error codes of an error answer (the Error shape narrowed to them) */
const errorCodesOf = (response: Json): string[] =>
  response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.errorCode?.enum ?? []

function Operation({
  document,
  path,
  method,
  op,
}: {
  document: OpenApiDocument
  path: string
  method: string
  op: Json
}) {
  const parameters = (op.parameters ?? []).map((p: Json) =>
    p.$ref ? (document.components as Json).parameters[refName(p.$ref)] : p,
  )
  const body = op.requestBody?.content?.['application/json']
  const bodySchema = body?.schema?.$ref ? document.components.schemas[refName(body.schema.$ref)] : body?.schema
  return (
    <section className="docs-card" id={op.operationId} aria-labelledby={`${op.operationId}-title`}>
      <h3 id={`${op.operationId}-title`}>
        <span className={`docs-method docs-method-${method}`}>{method.toUpperCase()}</span>
        <span className="docs-path">{path}</span>
      </h3>
      <p>
        <strong>{op.summary}</strong>
        {op.security?.length === 0
          ? ' — no token'
          : op.security?.some((s: Json) => 'metricsToken' in s)
            ? ' — the METRICS_TOKEN setting as bearer token'
            : null}
      </p>
      <Markdown text={op.description} />
      {parameters.length ? (
        <>
          <h4>Path parameters</h4>
          <ul className="docs-fields">
            {parameters.map((p: Json) => (
              <li key={p.name}>
                <span className="docs-name">{p.name}</span> <TypeOf schema={p.schema} />
                <span className="docs-required"> required</span>
                {p.description ? <p className="docs-note">{p.description}</p> : null}
                <p className="docs-note">{constraintsOf(p.schema).join('; ')}</p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {body ? (
        <>
          <h4>
            Request body{op.requestBody.required ? '' : ' (optional)'}: <TypeOf schema={body.schema} />
          </h4>
          {bodySchema?.description ? <p className="docs-note">{bodySchema.description}</p> : null}
          {bodySchema ? <Fields schema={bodySchema} /> : null}
          <Examples examples={body.examples} />
        </>
      ) : null}
      <h4>Responses</h4>
      <ul className="docs-responses">
        {Object.entries(op.responses as Json).map(([status, r]) => {
          const response = resolve(document, r)
          const codes = errorCodesOf(response)
          const media = response.content?.['application/json']
          const text = media ? undefined : Object.keys(response.content ?? {})[0]
          return (
            <li key={status}>
              <span className="docs-status">{status}</span>
              {codes.length ? (
                <>
                  <a href={`#${anchorOf('Error')}`}>Error</a>:{' '}
                  {codes.map((c, i) => (
                    <span key={c}>
                      {i ? ', ' : ''}
                      <code>{c}</code>
                    </span>
                  ))}
                  <p className="docs-note">
                    <Text parts={markdownInline(response.description)} />
                  </p>
                </>
              ) : (
                <>
                  {media ? <TypeOf schema={media.schema} /> : text ? <code>{text}</code> : null}
                  <p className="docs-note">
                    <Text parts={markdownInline(response.description)} />
                  </p>
                  <Examples examples={media?.examples} />
                </>
              )}
            </li>
          )
        })}
      </ul>
      <h4>curl</h4>
      <pre>
        <code>{curlOf(path, method, op)}</code>
      </pre>
    </section>
  )
}

function Webhook({ name, op }: { name: string; op: Json }) {
  const body = op.requestBody.content['application/json']
  return (
    <section className="docs-card" id={`webhook-${name}`}>
      <h3>
        <span className="docs-method docs-method-post">POST</span>
        <span className="docs-path">your notification URL</span>
      </h3>
      <p>
        <strong>{op.summary}</strong>: <TypeOf schema={body.schema} />
      </p>
      <Markdown text={op.description} />
      <h4>Headers</h4>
      <ul className="docs-fields">
        {op.parameters.map((p: Json) => (
          <li key={p.name}>
            <span className="docs-name">{p.name}</span> <TypeOf schema={p.schema} />
            <p className="docs-note">
              <Text parts={markdownInline(p.description)} />
            </p>
          </li>
        ))}
      </ul>
      <h4>Your answer</h4>
      <ul className="docs-responses">
        {Object.entries(op.responses as Json).map(([status, r]) => (
          <li key={status}>
            <span className="docs-status">{status}</span> {r.description}
          </li>
        ))}
      </ul>
      <Examples examples={body.examples} />
    </section>
  )
}

export function ApiReference({ document, origin }: { document: OpenApiDocument; origin: string }) {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Json })),
  )
  const tags = (document.tags as { name: string; description: string }[]) ?? []
  const schemes = (document.components as Json).securitySchemes as Json
  return (
    <main className="docs">
      <h1>{document.info.title}</h1>
      <p className="docs-note">
        OpenAPI {document.openapi}, version {document.info.version} · the document:{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>
      </p>
      <Markdown text={document.info.description as string} />

      <nav className="docs-card docs-toc" aria-label="Contents">
        <strong>Contents</strong>
        <ul>
          <li>
            <a href="#start">Servers and authentication</a>
          </li>
          {tags.map((t) => (
            <li key={t.name}>
              <a href={`#tag-${t.name}`}>{t.name}</a>
              <ul>
                {operations
                  .filter((o) => o.op.tags?.includes(t.name))
                  .map((o) => (
                    <li key={o.op.operationId}>
                      <a href={`#${o.op.operationId}`}>{o.op.summary}</a>{' '}
                      <code>{`${o.method.toUpperCase()} ${o.path}`}</code>
                    </li>
                  ))}
              </ul>
            </li>
          ))}
          <li>
            <a href="#webhooks">Notifications posted to you (webhooks)</a>
          </li>
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </ul>
      </nav>

      <h2 id="start">Servers and authentication</h2>
      <ul>
        {/* relative servers are on this origin; the one for a copy read elsewhere is the first one again here */}
        {(document.servers as Json[])
          .filter((s) => !String(s.url).startsWith('{origin}'))
          .map((s) => (
            <li key={s.url}>
              <code>{`${origin}${s.url}`}</code> — {s.description}
            </li>
          ))}
      </ul>
      {Object.entries(schemes).map(([name, s]) => (
        <p key={name}>
          <code>Authorization: Bearer &lt;token&gt;</code>. <Text parts={markdownInline(s.description)} />
        </p>
      ))}
      <p>The curl commands below use these:</p>
      <pre>
        <code>{`export BASE=${origin}/api SITE=demo TOKEN=sk_…   # the token printed by npm start`}</code>
      </pre>

      {tags.map((t) => (
        <section key={t.name} aria-labelledby={`tag-${t.name}`}>
          <h2 id={`tag-${t.name}`}>{t.name}</h2>
          <p>
            <Text parts={markdownInline(t.description)} />
          </p>
          {operations
            .filter((o) => o.op.tags?.includes(t.name))
            .map((o) => (
              <Operation key={o.op.operationId} document={document} path={o.path} method={o.method} op={o.op} />
            ))}
        </section>
      ))}

      <h2 id="webhooks">Notifications posted to you (webhooks)</h2>
      {Object.entries(document.webhooks).map(([name, item]) => (
        <Webhook key={name} name={name} op={(item as Json).post} />
      ))}

      <h2 id="schemas">Schemas</h2>
      {Object.entries(document.components.schemas).map(([name, schema]) => (
        <section key={name} className="docs-card" id={anchorOf(name)}>
          <h3>
            <span className="docs-path">{name}</span> <TypeOf schema={schema} />
          </h3>
          {schema.description ? (
            <p className="docs-note">
              <Text parts={markdownInline(schema.description as string)} />
            </p>
          ) : null}
          {constraintsOf(schema).length ? <p className="docs-note">{constraintsOf(schema).join('; ')}</p> : null}
          <Fields schema={schema} />
        </section>
      ))}
    </main>
  )
}
