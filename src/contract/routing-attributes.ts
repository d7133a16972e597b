/**
 * Attribute names that steer the exporter's routing (docs/exporter.md, "Routing"). They choose
 * the target and are never sent as log or resource attributes, so the receiver never sees
 * them; they are part of the contract because users set them.
 */
export const ROUTING_ATTRIBUTES = {
  uuid: 'reslog.resource.uuid',
  key: 'reslog.resource.key',
  username: 'reslog.username',
} as const;
