import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  MinLength,
  ValidateNested,
  getMetadataStorage,
  validateSync,
} from 'class-validator';
import { plainToInstance } from 'class-transformer';
import {
  bodySchema,
  enumValues,
  declaredSchema,
  mergeSchemas,
  resolveOpenApi,
  schemaFromValidation,
  type ClassShape,
} from '../../../../bench/own-app/bodies/body-schema.js';
import { exampleBody, exampleValue } from '../../../../bench/own-app/bodies/example-body.js';
import { planOwnApp } from '../../../../bench/own-app/routes/app-config.js';
import { destroysWhatItNames } from '../../../../bench/own-app/routes/route-request.js';
import { UNIQUE_PLACEHOLDER, uniqueFiller } from '../../../../bench/run/unique-values.js';
import type { Route } from '../../../../bench/own-app/routes/discover.js';

enum Role {
  Reader = 'reader',
  Editor = 'editor',
}
enum Level {
  Low,
  High,
}

class Address {
  @IsString()
  @MinLength(2)
  city!: string;
}

class SignUp {
  @IsEmail()
  email!: string;

  @IsString()
  @MinLength(3)
  @MaxLength(20)
  username!: string;

  @IsInt()
  @IsPositive()
  @Max(120)
  age!: number;

  @IsEnum(Role)
  role!: Role;

  @IsString({ each: true })
  @ArrayMinSize(2)
  tags!: string[];

  @ValidateNested()
  @Type(() => Address)
  address!: Address;

  @IsOptional()
  @IsString()
  bio?: string;
}

/** A sign-up whose password rule asks for each kind of character (api-realtor's), and a username of lower case. */
class StrongSignUp {
  @IsEmail()
  email!: string;

  @Matches(/^(?=.*?[A-Z])(?=.*?[a-z])(?=.*?[0-9])(?=.*?[#?!@$ %^&*-]).{8,}$/)
  password!: string;

  @Matches(/^[a-z0-9]+$/)
  @MaxLength(30)
  username!: string;
}

/** What the launcher reads of a DTO inside the app's process, done here on this test's own classes. */
function shapeOf(dto: Function): ClassShape {
  const rules = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .map((m) => ({
      property: m.propertyName,
      name: m.type === 'customValidation' || m.type === 'conditionalValidation' ? (m.name ?? m.type) : m.type,
      constraints: m.constraints ?? [],
      each: Boolean(m.each),
    }));
  const designTypes: Record<string, string> = {};
  const nested: Record<string, ClassShape> = {};
  for (const { property, name } of rules) {
    designTypes[property] = Reflect.getMetadata('design:type', dto.prototype, property)?.name;
    if (name === 'nestedValidation' && property === 'address') nested[property] = shapeOf(Address);
  }
  return { name: dto.name, rules, designTypes, nested };
}

/** The body as a request would carry it, placeholders filled. */
const filled = (schema: Parameters<typeof exampleBody>[0]) =>
  JSON.parse(uniqueFiller('tag001')(exampleBody(schema)) as string);

describe('a body derived from class-validator rules', () => {
  const schema = schemaFromValidation(shapeOf(SignUp));

  it('passes the DTO’s own validation: email, lengths, a positive bounded integer, an enum, a list, a nested DTO', () => {
    const errors = validateSync(plainToInstance(SignUp, filled(schema)));
    expect(errors).toEqual([]);
  });

  it('keeps an @IsOptional field out of the required ones', () => {
    expect(schema.required).not.toContain('bio');
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'username', 'age', 'role', 'tags', 'address']));
  });

  it('keeps class-validator 0.14.0’s @IsOptional out of the required ones: an unnamed condition, false when missing', () => {
    // RealWorld's UpdateUserDto on 0.14.0: @IsOptional() is kept as { type: 'conditionalValidation' }, no name
    const unnamed = (property: string, condition: (object: Record<string, unknown>) => boolean) => ({
      property,
      name: 'conditionalValidation',
      constraints: [condition],
      each: false,
    });
    const isString = (property: string) => ({ property, name: 'isString', constraints: [], each: false });
    const shape: ClassShape = {
      name: 'UpdateUserDto',
      rules: [
        unnamed('bio', (object) => object.bio !== null && object.bio !== undefined),
        isString('bio'),
        // a @ValidateIf() on another field still leaves its property required
        unnamed('vat', (object) => object.kind === 'company'),
        isString('vat'),
        isString('kind'),
      ],
      designTypes: { bio: 'String', vat: 'String', kind: 'String' },
      nested: {},
    };
    expect(schemaFromValidation(shape).required).toEqual(['vat', 'kind']);
  });

  it('marks free text and emails unique per request, and fills each placeholder differently', () => {
    const body = exampleBody(schema);
    expect(body).toContain(UNIQUE_PLACEHOLDER);
    const fill = uniqueFiller('tag001');
    const [first, second] = [JSON.parse(fill(body) as string), JSON.parse(fill(body) as string)];
    expect(first.email).not.toBe(second.email);
    expect(first.username).not.toBe(second.username);
    expect(first.role).toBe(second.role);
  });

  it('passes @Matches: a password rule’s lookaheads, whatever the run’s tag, and a pattern the plain value already fits', () => {
    const strong = schemaFromValidation(shapeOf(StrongSignUp));
    for (const tag of ['abcdef', '012345', 'zzzzzz']) {
      const body = JSON.parse(uniqueFiller(tag)(exampleBody(strong)) as string);
      expect(validateSync(plainToInstance(StrongSignUp, body))).toEqual([]);
      expect(body.username).toMatch(/^username/);
    }
  });

  it('takes a numeric enum’s numbers, not its reverse-mapped names', () => {
    expect(enumValues(Level, undefined)).toEqual([0, 1]);
  });
});

describe('a body derived from the OpenAPI document', () => {
  const document = {
    components: {
      schemas: {
        Base: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        Order: {
          allOf: [
            { $ref: '#/components/schemas/Base' },
            {
              type: 'object',
              properties: {
                contact: { type: 'string', format: 'email' },
                quantity: { type: 'integer', exclusiveMinimum: 0, maximum: 9 },
                lines: { type: 'array', items: { $ref: '#/components/schemas/Base' }, minItems: 2 },
              },
            },
          ],
        },
      },
    },
  };

  it('resolves $ref and allOf into one schema with every field', () => {
    const schema = resolveOpenApi(document, { $ref: '#/components/schemas/Order' });
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['contact', 'id', 'lines', 'quantity']);
    const body = filled(schema);
    expect(body.contact).toMatch(/^b\w+@example\.com$/);
    expect(body.quantity).toBe(1);
    expect(body.lines).toHaveLength(2);
  });

  it('is merged with class-validator’s rules, which win where both speak of one field', () => {
    const merged = mergeSchemas(
      { type: 'object', properties: { name: { type: 'string', maxLength: 100 } }, required: ['name'] },
      { type: 'object', properties: { name: { type: 'string', maxLength: 30 } }, required: ['name'] },
      true,
    );
    expect(merged).toEqual({
      type: 'object',
      properties: { name: { type: 'string', maxLength: 30 } },
      required: ['name'],
    });
  });

  it('takes a field class-validator holds optional as optional, nested too, where the document requires it', () => {
    // RealWorld: UpdateUserReqDto's user is a class named UserData, as the sign-up's is; the document keeps one
    // UserData, the sign-up's, with every field required, while the update's fields are all @IsOptional()
    const documented = {
      type: 'object' as const,
      properties: {
        user: {
          type: 'object' as const,
          properties: { username: { type: 'string' as const }, email: { type: 'string' as const, format: 'email' } },
          required: ['username', 'email'],
        },
      },
      required: ['user'],
    };
    const validated = {
      type: 'object' as const,
      properties: {
        user: {
          type: 'object' as const,
          properties: { username: { type: 'string' as const }, bio: { type: 'string' as const } },
          required: [],
        },
      },
      required: ['user'],
    };
    const merged = mergeSchemas(documented, validated, true);
    expect(merged.required).toEqual(['user']);
    expect(merged.properties?.user.required).toEqual(['email']);
    expect(Object.keys(merged.properties?.user.properties ?? {}).sort()).toEqual(['bio', 'email', 'username']);
    // two parts of the document's allOf both hold: what either requires is required
    expect(mergeSchemas(documented.properties.user, validated.properties.user).required).toEqual(['username', 'email']);
  });
});

describe('declaredSchema: a @Body() parameter that its DTO does not describe', () => {
  it('is an object, sent as JSON, for a class with no decorators, an interface or no type (project_5’s register)', () => {
    for (const typeName of ['User', 'Object', null]) {
      expect(exampleValue(declaredSchema(typeName))).toEqual({});
      expect(exampleBody(declaredSchema(typeName))).toBe('{}');
    }
  });

  it('keeps a declared string, number or list, and what the DTO does describe', () => {
    expect(declaredSchema('String')).toEqual({ type: 'string' });
    expect(declaredSchema('Array')).toEqual({ type: 'array' });
    const described = { type: 'object' as const, properties: { name: { type: 'string' as const } } };
    expect(declaredSchema('User', described)).toBe(described);
  });
});

describe('exampleValue', () => {
  it('stays within a maxLength too short for a unique value, without one', () => {
    expect(exampleValue({ type: 'string', minLength: 2, maxLength: 4 }, 'code')).toBe('xx');
  });

  it('reads a format from a text field’s name when the DTO declares none', () => {
    expect(exampleValue({ type: 'string' }, 'email')).toBe(`b${UNIQUE_PLACEHOLDER}@example.com`);
  });
});

describe('bodySchema (the handler’s @Body parameters)', () => {
  const dto = { type: 'object' as const, properties: { title: { type: 'string' as const } }, required: ['title'] };

  it('wraps a named @Body("article") parameter under its key', () => {
    expect(bodySchema([{ key: 'article', schema: dto }])).toEqual({
      type: 'object',
      properties: { article: dto },
      required: ['article'],
    });
  });

  it('takes a whole @Body() parameter as the body', () => {
    expect(bodySchema([{ key: null, schema: dto }])).toBe(dto);
  });
});

describe('planning writes', () => {
  const route = (method: string, path: string, body: Route['body'] = null) => ({
    method,
    path,
    handler: `C.${method.toLowerCase()}`,
    version: null,
    body,
  });
  const discovered = {
    routes: [
      route('POST', '/articles', {
        schema: { type: 'object', properties: { title: { type: 'string' } } },
        sources: ['class-validator'],
      }),
      route('DELETE', '/articles/:slug'),
      route('DELETE', '/articles/:slug/favorite'),
      route('POST', '/login', { schema: { type: 'object', properties: {} }, sources: [] }),
    ],
    versioning: null,
  };
  const plan = planOwnApp({
    discovered,
    params: { slug: 'a' },
    traffic: null,
    trafficFile: null,
    configScenarios: [],
    bodies: [{ method: 'POST', url: '/login', value: { user: 'me', password: 'pw' } }],
    headers: { authorization: 'Bearer t' },
  });
  const entry = (handler: string) => plan.routes.find((r) => r.handler === handler);
  const scenario = (name: string | null | undefined) => plan.scenarios.find((s) => s.name === name);

  it('sends a write the body derived from its DTO, and says where it came from', () => {
    expect(entry('C.post')).toMatchObject({ body: 'derived', bodySources: ['class-validator'] });
    expect(scenario(entry('C.post')?.scenario)).toMatchObject({
      method: 'POST',
      body: { title: `title${UNIQUE_PLACEHOLDER}` },
    });
  });

  it('sends --body where it is given, in place of the derived one', () => {
    expect(scenario('post-login')).toMatchObject({ body: { user: 'me', password: 'pw' } });
    expect(entry('C.post')?.body).toBe('derived');
    expect(plan.routes.find((r) => r.path === '/login')?.body).toBe('--body');
  });

  it('signs every request with the headers it was given', () => {
    for (const s of plan.scenarios) expect(s.headers).toEqual({ authorization: 'Bearer t' });
  });

  it('lists a DELETE of what its last parameter names with why, and measures one that removes a relation', () => {
    expect(destroysWhatItNames(discovered.routes[1])).toBe(true);
    expect(plan.routes.find((r) => r.path === '/articles/:slug')?.notMeasured).toMatch(/deletes what :slug names/);
    expect(plan.routes.find((r) => r.path === '/articles/:slug/favorite')?.scenario).toBe(
      'delete-articles-slug-favorite',
    );
  });
});
