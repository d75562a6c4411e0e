/// The OpenAPI 3 description of the local Engagement server, served at `GET /openapi.json`.
enum OpenAPIDocument {
  static let json = #"""
    {
      "openapi": "3.0.3",
      "info": {
        "title": "RegScope local Engagement server",
        "version": "1.0.0",
        "description": "The receiving side of MobilePush device registration (RegScope SPEC S1-S7): registrations are answered 201 at once and processed after a delay; contacts, devices, orphans and the billing count can be inspected; faults can be injected for QA."
      },
      "servers": [{"url": "http://127.0.0.1:8080"}],
      "paths": {
        "/device/v1/registration": {
          "post": {
            "summary": "Receive a device registration (S1)",
            "security": [{"bearer": []}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Registration"}}}},
            "responses": {
              "201": {"description": "Received; processing follows after the processing delay (S2)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Received"}}}},
              "400": {"description": "Not JSON, a wrong type, a required field missing, or an unknown etAppId", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "401": {"description": "The bearer token is missing or wrong", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "413": {"description": "The body is too large", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "429": {"description": "Injected fault (S7), with Retry-After", "headers": {"Retry-After": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "500": {"description": "Injected fault (S7)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "503": {"description": "Injected fault (S7)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "504": {"description": "Injected hang (S7) that outlived its hold time", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/api/contacts": {
          "get": {
            "summary": "Contacts: key, devices, orphaned, made-up key or not (S3, S4)",
            "responses": {"200": {"description": "All contacts", "content": {"application/json": {"schema": {"type": "object", "required": ["contacts"], "properties": {"contacts": {"type": "array", "items": {"$ref": "#/components/schemas/Contact"}}}}}}}}
          }
        },
        "/api/devices": {
          "get": {
            "summary": "Devices: id, token, contact, active, last registration",
            "responses": {"200": {"description": "All devices", "content": {"application/json": {"schema": {"type": "object", "required": ["devices"], "properties": {"devices": {"type": "array", "items": {"$ref": "#/components/schemas/Device"}}}}}}}}
          }
        },
        "/api/registrations": {
          "get": {
            "summary": "Registrations: received, processed, rejected with the reason (S2, S5, S6)",
            "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "default": 100}}],
            "responses": {
              "200": {"description": "Newest first", "content": {"application/json": {"schema": {"type": "object", "required": ["registrations"], "properties": {"registrations": {"type": "array", "items": {"$ref": "#/components/schemas/RegistrationStatus"}}}}}}},
              "400": {"description": "A bad limit", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/api/stats": {
          "get": {
            "summary": "The billing view: distinct contacts, orphans, devices, pending (S4)",
            "responses": {"200": {"description": "Counts", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Stats"}}}}}
          }
        },
        "/api/demographics": {
          "put": {
            "summary": "Define the attribute names the demographics table accepts (S5); null accepts all",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["attributes"], "properties": {"attributes": {"type": "array", "nullable": true, "items": {"type": "string"}}}}}}},
            "responses": {
              "200": {"description": "The table now", "content": {"application/json": {"schema": {"type": "object", "properties": {"attributes": {"type": "array", "nullable": true, "items": {"type": "string"}}}}}}},
              "400": {"description": "Not the expected shape", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/api/faults": {
          "post": {
            "summary": "Inject a fault (S7): a status for the next N requests or for a while, hang, drop, or down",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Fault"}}}},
            "responses": {
              "200": {"description": "The fault now in force", "content": {"application/json": {"schema": {"type": "object", "properties": {"fault": {"type": "string"}}}}}},
              "400": {"description": "A bad fault", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          },
          "delete": {
            "summary": "Recover: clear the fault",
            "responses": {"200": {"description": "No fault", "content": {"application/json": {"schema": {"type": "object", "properties": {"fault": {"type": "string", "nullable": true}}}}}}}
          }
        },
        "/openapi.json": {
          "get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        }
      },
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
          "Error": {"type": "object", "required": ["error", "message"], "properties": {"error": {"type": "string"}, "message": {"type": "string"}, "field": {"type": "string"}}},
          "Received": {"type": "object", "required": ["received", "registrationId", "processAt"], "properties": {"received": {"type": "boolean"}, "registrationId": {"type": "integer"}, "processAt": {"type": "number"}}},
          "Registration": {
            "type": "object",
            "required": ["deviceID", "etAppId", "platform"],
            "properties": {
              "deviceID": {"type": "string"}, "etAppId": {"type": "string"}, "platform": {"type": "string", "enum": ["iOS", "Android"]},
              "subscriberKey": {"type": "string", "maxLength": 100}, "device_Token": {"type": "string"},
              "platform_Version": {"type": "string"}, "app_Version": {"type": "string"}, "sdk_Version": {"type": "string"},
              "hwid": {"type": "string"}, "locale": {"type": "string"}, "language": {"type": "string"},
              "timeZone": {"type": "string"}, "dST": {"type": "boolean"}, "push_Enabled": {"type": "boolean"},
              "quietPushEnabled": {"type": "boolean"}, "location_Enabled": {"type": "boolean"}, "proximity_Enabled": {"type": "boolean"},
              "badge": {"type": "integer"}, "registrationId": {"type": "string"},
              "attributes": {"type": "array", "items": {"type": "object", "required": ["key", "value"], "properties": {"key": {"type": "string"}, "value": {"type": "string"}}}},
              "tags": {"type": "array", "items": {"type": "string"}}
            }
          },
          "Contact": {"type": "object", "required": ["key", "madeUp", "orphaned", "devices", "createdAt"], "properties": {"key": {"type": "string"}, "madeUp": {"type": "boolean"}, "orphaned": {"type": "boolean"}, "devices": {"type": "array", "items": {"type": "string"}}, "createdAt": {"type": "number"}, "orphanedAt": {"type": "number", "nullable": true}}},
          "Device": {"type": "object", "required": ["deviceID", "platform", "active", "pushEnabled", "attributes", "tags", "lastRegistration"], "properties": {"deviceID": {"type": "string"}, "token": {"type": "string", "nullable": true}, "contactKey": {"type": "string", "nullable": true}, "platform": {"type": "string"}, "active": {"type": "boolean"}, "inactiveReason": {"type": "string", "nullable": true}, "pushEnabled": {"type": "boolean"}, "attributes": {"type": "object", "additionalProperties": {"type": "string"}}, "tags": {"type": "array", "items": {"type": "string"}}, "lastRegistration": {"type": "object", "properties": {"id": {"type": "integer"}, "at": {"type": "number"}}}}},
          "RegistrationStatus": {"type": "object", "required": ["id", "status", "receivedAt", "processAt"], "properties": {"id": {"type": "integer"}, "status": {"type": "string", "enum": ["received", "processed", "rejected"]}, "deviceID": {"type": "string", "nullable": true}, "subscriberKey": {"type": "string", "nullable": true}, "receivedAt": {"type": "number"}, "processAt": {"type": "number"}, "processedAt": {"type": "number", "nullable": true}, "reason": {"type": "string", "nullable": true}, "contactKey": {"type": "string", "nullable": true}}},
          "Stats": {"type": "object", "required": ["distinctContacts", "orphanedContacts", "devices", "pending"], "properties": {"distinctContacts": {"type": "integer"}, "orphanedContacts": {"type": "integer"}, "madeUpContacts": {"type": "integer"}, "devices": {"type": "integer"}, "activeDevices": {"type": "integer"}, "pending": {"type": "integer"}, "processed": {"type": "integer"}, "rejected": {"type": "integer"}, "received": {"type": "integer"}, "definedAttributes": {"type": "array", "nullable": true, "items": {"type": "string"}}, "processingDelay": {"type": "number"}, "fault": {"type": "string", "nullable": true}}},
          "Fault": {"type": "object", "properties": {"status": {"type": "integer", "minimum": 400, "maximum": 599}, "mode": {"type": "string", "enum": ["hang", "drop", "down"]}, "times": {"type": "integer", "minimum": 1}, "seconds": {"type": "number", "minimum": 0, "exclusiveMinimum": true}, "retryAfter": {"type": "number", "minimum": 0}}}
        }
      }
    }
    """#
}
