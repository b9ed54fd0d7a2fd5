import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, USER_SCHEMA } from "./resource";

/** RFC 7643 section 5: what this service provider supports. */
export const serviceProviderConfig = (base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
  documentationUri: "https://github.com/inventory/docs/scim.md",
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: 200 },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: true },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "SCIM token",
      description: "A workspace SCIM token (POST /api/v1/scim-tokens) sent as `Authorization: Bearer <token>`.",
      primary: true,
    },
  ],
  meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
});

export const resourceTypes = (base: string) => [
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "User",
    name: "User",
    endpoint: "/Users",
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` },
  },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    schema: GROUP_SCHEMA,
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` },
  },
];

const attr = (name: string, type = "string", extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export const schemas = (base: string) => [
  {
    id: USER_SCHEMA,
    name: "User",
    attributes: [
      attr("userName", "string", { required: true, uniqueness: "server" }),
      attr("name", "complex", { subAttributes: [attr("formatted"), attr("givenName"), attr("familyName")] }),
      attr("displayName"),
      attr("title"),
      attr("active", "boolean"),
      attr("emails", "complex", {
        multiValued: true,
        subAttributes: [attr("value"), attr("type"), attr("primary", "boolean")],
      }),
      attr("phoneNumbers", "complex", { multiValued: true, subAttributes: [attr("value"), attr("type")] }),
    ],
    meta: { resourceType: "Schema", location: `${base}/Schemas/${USER_SCHEMA}` },
  },
  {
    id: ENTERPRISE_SCHEMA,
    name: "EnterpriseUser",
    attributes: [
      attr("employeeNumber"),
      attr("department"),
      attr("costCenter"),
      attr("manager", "complex", { subAttributes: [attr("value")] }),
    ],
    meta: { resourceType: "Schema", location: `${base}/Schemas/${ENTERPRISE_SCHEMA}` },
  },
  {
    id: GROUP_SCHEMA,
    name: "Group",
    attributes: [
      attr("displayName", "string", { required: true, uniqueness: "server" }),
      attr("members", "complex", { multiValued: true, subAttributes: [attr("value"), attr("display")] }),
    ],
    meta: { resourceType: "Schema", location: `${base}/Schemas/${GROUP_SCHEMA}` },
  },
];

export const listOf = (resources: unknown[], total = resources.length, startIndex = 1) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
