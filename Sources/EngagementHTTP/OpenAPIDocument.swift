import EngagementCore
import EngagementServer
import RegistrationCore

/// The OpenAPI 3 description of the local Engagement server, served at `GET /openapi.json`.
/// It names the server's own app ID, the one `etAppId` it accepts, so a schema-driven client
/// (schemathesis, a generated SDK) sends registrations this server takes.
enum OpenAPIDocument {
  static func json(appID: String) -> String {
    template.replacingOccurrences(of: "\"APP-ID\"", with: JSONText.quoted(appID))
      .replacingOccurrences(of: "\"FINDING-CODES\"", with: FindingCode.jsonList)
  }

  private static let template = #"""
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
            "summary": "Contacts, newest first: key, devices, orphaned, made-up key or not (S3, S4)",
            "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/before"}],
            "responses": {
              "200": {"description": "One page", "content": {"application/json": {"schema": {"type": "object", "required": ["contacts", "next"], "properties": {"contacts": {"type": "array", "items": {"$ref": "#/components/schemas/Contact"}}, "next": {"$ref": "#/components/schemas/Next"}}}}}},
              "400": {"$ref": "#/components/responses/BadQuery"},
              "404": {"$ref": "#/components/responses/UnknownCursor"}
            }
          }
        },
        "/api/devices": {
          "get": {
            "summary": "Devices, newest first: id, token, contact, active, last registration",
            "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/before"}],
            "responses": {
              "200": {"description": "One page", "content": {"application/json": {"schema": {"type": "object", "required": ["devices", "next"], "properties": {"devices": {"type": "array", "items": {"$ref": "#/components/schemas/Device"}}, "next": {"$ref": "#/components/schemas/Next"}}}}}},
              "400": {"$ref": "#/components/responses/BadQuery"},
              "404": {"$ref": "#/components/responses/UnknownCursor"}
            }
          }
        },
        "/api/devices/{deviceID}/registrations": {
          "get": {
            "summary": "A real app's device: its registrations (newest 50, the newest 5 with their bodies), each with the interval since the one before, the status answered, what changed, and the rules it broke",
            "parameters": [{"name": "deviceID", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {
              "200": {"description": "The device's timeline", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Timeline"}}}},
              "404": {"description": "No such device has registered", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "410": {"description": "The device registered, but its timeline was dropped: the watch keeps the 5,000 devices seen most recently", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/device/v1/{appId}/sync/{deviceId}": {
          "post": {"summary": "The SDKs' sync route: answered {} and counted against the device", "parameters": [{"name": "appId", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "deviceId", "in": "path", "required": true, "schema": {"type": "string"}}], "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/device/v1/{appId}/message": {
          "get": {"summary": "The SDKs' inbox route: no messages", "parameters": [{"name": "appId", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "deviceid", "in": "query", "schema": {"type": "string"}}, {"name": "wm", "in": "query", "description": "9.x and 10.x: the inbox watermark", "schema": {"type": "string"}}, {"name": "messagetype", "in": "query", "description": "8.x: 8", "schema": {"type": "string"}}, {"name": "contenttype", "in": "query", "description": "8.x: 2", "schema": {"type": "string"}}], "responses": {"200": {"description": "No messages", "content": {"application/json": {"schema": {"type": "object"}}}}}},
          "patch": {"summary": "The SDKs' inbox status route", "parameters": [{"name": "appId", "in": "path", "required": true, "schema": {"type": "string"}}], "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/device/v1/event/analytic": {
          "post": {"summary": "The SDKs' analytics route", "requestBody": {"content": {"application/json": {"schema": {}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/devicestatistics/v1/analytic": {
          "post": {"summary": "The SDKs' statistics route", "requestBody": {"content": {"application/json": {"schema": {}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/devicestatistics/v1/event": {
          "post": {"summary": "The SDKs' statistics event route", "requestBody": {"content": {"application/json": {"schema": {}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/device/v1/location/{appId}/fence": {
          "get": {"summary": "The SDKs' geofence route: no fences", "parameters": [{"name": "appId", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "No fences", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/device/v1/location/{appId}/proximity": {
          "get": {"summary": "The SDKs' beacon route: no beacons", "parameters": [{"name": "appId", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "No beacons", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/platform/messaging/mobileapp/v1/events/register": {
          "post": {"summary": "The Mobile App Messaging SDK's registration event: answered {}, shown on the device's timeline (its deviceId), never judged by the MobilePush rules", "parameters": [{"name": "x-sfdc-tenant-id", "in": "header", "schema": {"type": "string"}}, {"name": "x-sfdc-mobile-app-id", "in": "header", "schema": {"type": "string"}}], "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppMessagingEvent"}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/platform/messaging/mobileapp/v1/events/engagement": {
          "post": {"summary": "The Mobile App Messaging SDK's engagement event: answered {}, shown on the device's timeline (its deviceId), never judged by the MobilePush rules", "parameters": [{"name": "x-sfdc-tenant-id", "in": "header", "schema": {"type": "string"}}, {"name": "x-sfdc-mobile-app-id", "in": "header", "schema": {"type": "string"}}], "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppMessagingEvent"}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/platform/messaging/mobileapp/v1/events/billing": {
          "post": {"summary": "The Mobile App Messaging SDK's billing event: answered {}, shown on the device's timeline (its deviceId), never judged by the MobilePush rules", "parameters": [{"name": "x-sfdc-tenant-id", "in": "header", "schema": {"type": "string"}}, {"name": "x-sfdc-mobile-app-id", "in": "header", "schema": {"type": "string"}}], "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/MobileAppMessagingEvent"}}}}, "responses": {"200": {"description": "An empty answer", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        },
        "/api/devices/{deviceID}/fields": {
          "get": {
            "summary": "Why didn't my attribute arrive: every attribute, tag and the contact key of a device, each value sent and when, in which registration, what processing did with it and why, what the contact holds now",
            "parameters": [{"name": "deviceID", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "Each field's story", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DeviceFields"}}}}, "404": {"description": "The server holds no registration of this device", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
          }
        },
        "/api/devices/{deviceID}/explain": {
          "get": {
            "summary": "The same story as a short answer in sentences, most important first, each rejection with its fix",
            "parameters": [{"name": "deviceID", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "The explanation", "content": {"application/json": {"schema": {"type": "object", "required": ["deviceID", "sentences"], "properties": {"deviceID": {"type": "string"}, "sentences": {"type": "array", "items": {"type": "string"}}}}}}}, "404": {"description": "The server holds no registration of this device", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
          }
        },
        "/api/devices/{deviceID}/har": {
          "get": {
            "summary": "A real app's device: its newest requests and answers as HAR 1.2 (tokens masked), to attach to a bug report or read back with regctl judge",
            "parameters": [{"name": "deviceID", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {
              "200": {"description": "The device's part of the capture", "content": {"application/har+json": {"schema": {"type": "object", "required": ["log"], "properties": {"log": {"type": "object"}}}}}},
              "404": {"description": "No exchange of that device is held", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/api/devices/{deviceID}/bundle": {
          "post": {
            "summary": "A device's debug bundle for a ticket (regctl bundle's zip): README.md in words, the capture as HAR 1.2, the timeline, findings, field stories and explanation as JSON, the settings, a manifest with each file's size and SHA-256; tokens masked, and with redact=true contact keys, device ids, push tokens and attribute values replaced with keyed hashes",
            "security": [{"bearer": []}],
            "parameters": [{"name": "deviceID", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "redact", "in": "query", "schema": {"type": "boolean"}}],
            "responses": {
              "200": {"description": "The bundle", "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"description": "The server holds nothing of this device", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "413": {"description": "The bundle would pass 64 MiB", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "500": {"description": "The bundle could not be made", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/api/registrations": {
          "get": {
            "summary": "Registrations, newest first, of the newest the server keeps: received, processed, rejected with the reason (S2, S5, S6)",
            "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/beforeID"}],
            "responses": {
              "200": {"description": "One page", "content": {"application/json": {"schema": {"type": "object", "required": ["registrations", "next"], "properties": {"registrations": {"type": "array", "items": {"$ref": "#/components/schemas/RegistrationStatus"}}, "next": {"$ref": "#/components/schemas/Next"}}}}}},
              "400": {"$ref": "#/components/responses/BadQuery"}
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
            "security": [{"bearer": []}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["attributes"], "properties": {"attributes": {"type": "array", "nullable": true, "items": {"type": "string"}}}}}}},
            "responses": {
              "200": {"description": "The table now", "content": {"application/json": {"schema": {"type": "object", "properties": {"attributes": {"type": "array", "nullable": true, "items": {"type": "string"}}}}}}},
              "400": {"description": "Not the expected shape", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "409": {"description": "The server's demographics are the tenant's (--tenant): changed in Contact Builder, read again with POST /api/tenant/refresh", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "413": {"$ref": "#/components/responses/TooLarge"}
            }
          }
        },
        "/api/tenant/refresh": {
          "post": {
            "summary": "With --tenant: read the tenant's MobilePush Demographics again now and use them (as every 15 minutes); a failure keeps the table in use",
            "security": [{"bearer": []}],
            "responses": {
              "200": {"description": "The table now in use, and what changed", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DemographicsRefresh"}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "409": {"description": "Started without --tenant: nothing to refresh from", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "502": {"description": "The tenant could not answer (problem says why); the table in use was kept", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DemographicsRefresh"}}}}
            }
          }
        },
        "/api/faults": {
          "post": {
            "summary": "Inject a fault (S7): a status for the next N requests or for a while, hang, drop, or down",
            "security": [{"bearer": []}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Fault"}}}},
            "responses": {
              "200": {"description": "The fault now in force", "content": {"application/json": {"schema": {"type": "object", "properties": {"fault": {"type": "string"}}}}}},
              "400": {"description": "A bad fault", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "413": {"$ref": "#/components/responses/TooLarge"}
            }
          },
          "delete": {
            "summary": "Recover: clear the fault",
            "security": [{"bearer": []}],
            "responses": {
              "200": {"description": "No fault", "content": {"application/json": {"schema": {"type": "object", "properties": {"fault": {"type": "string", "nullable": true}}}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"}
            }
          }
        },
        "/openapi.json": {
          "get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3", "content": {"application/json": {"schema": {"type": "object"}}}}}}
        }
      },
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "parameters": {
          "limit": {"name": "limit", "in": "query", "description": "How many items (1 to 1000)", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}},
          "before": {"name": "before", "in": "query", "description": "The next of the page before: items older than this one", "schema": {"type": "string", "minLength": 1}},
          "beforeID": {"name": "before", "in": "query", "description": "The next of the page before: registrations with a smaller id", "schema": {"type": "integer", "minimum": 0, "description": "Past the largest id: the newest page"}}
        },
        "responses": {
          "BadQuery": {"description": "A bad limit or an empty before", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "UnknownCursor": {"description": "The before names nothing the view holds (a next from another server, or mistyped)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Unauthorized": {"description": "The bearer token is missing or wrong", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "TooLarge": {"description": "The body is larger than 1 MiB", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        },
        "schemas": {
          "Next": {"type": "string", "nullable": true, "description": "Pass as before for the next page; null on the last"},
          "Error": {"type": "object", "required": ["error", "message"], "properties": {"error": {"type": "string"}, "message": {"type": "string"}, "field": {"type": "string"}}},
          "Received": {"type": "object", "required": ["received", "registrationId", "processAt"], "properties": {"received": {"type": "boolean"}, "registrationId": {"type": "integer"}, "processAt": {"type": "number"}}},
          "Registration": {
            "type": "object",
            "description": "Optional fields may be null: null is the same as leaving the field out",
            "required": ["deviceID", "etAppId", "platform"],
            "properties": {
              "deviceID": {"type": "string", "pattern": "\\S"}, "etAppId": {"type": "string", "enum": ["APP-ID"]}, "platform": {"type": "string", "pattern": "\\S", "description": "iOS or Android; another value is received, then rejected in processing (S6)"},
              "subscriberKey": {"nullable": true, "type": "string", "description": "Over 100 characters: received, then rejected in processing (S6)"}, "device_Token": {"nullable": true, "type": "string"},
              "platform_Version": {"nullable": true, "type": "string"}, "app_Version": {"nullable": true, "type": "string"}, "sdk_Version": {"nullable": true, "type": "string"},
              "hwid": {"nullable": true, "type": "string"}, "locale": {"nullable": true, "type": "string"}, "language": {"nullable": true, "type": "string"},
              "timeZone": {"nullable": true, "type": "string"}, "dST": {"nullable": true, "type": "boolean"}, "push_Enabled": {"nullable": true, "type": "boolean"},
              "quietPushEnabled": {"nullable": true, "type": "boolean"}, "location_Enabled": {"nullable": true, "type": "boolean"}, "proximity_Enabled": {"nullable": true, "type": "boolean"},
              "badge": {"nullable": true, "type": "integer", "format": "int64"}, "registrationId": {"nullable": true, "type": "string"},
              "attributes": {"nullable": true, "type": "array", "items": {"type": "object", "required": ["key", "value"], "properties": {"key": {"type": "string"}, "value": {"type": "string"}}}},
              "tags": {"nullable": true, "type": "array", "items": {"type": "string"}}
            }
          },
          "Contact": {"type": "object", "required": ["key", "madeUp", "orphaned", "devices", "createdAt"], "properties": {"key": {"type": "string"}, "madeUp": {"type": "boolean"}, "orphaned": {"type": "boolean"}, "devices": {"type": "array", "items": {"type": "string"}}, "createdAt": {"type": "number"}, "orphanedAt": {"type": "number", "nullable": true}}},
          "Device": {"type": "object", "required": ["deviceID", "platform", "active", "pushEnabled", "attributes", "tags", "lastRegistration"], "properties": {"deviceID": {"type": "string"}, "token": {"type": "string", "nullable": true}, "contactKey": {"type": "string", "nullable": true}, "platform": {"type": "string"}, "active": {"type": "boolean"}, "inactiveReason": {"type": "string", "nullable": true}, "pushEnabled": {"type": "boolean"}, "attributes": {"type": "object", "additionalProperties": {"type": "string"}}, "tags": {"type": "array", "items": {"type": "string"}}, "lastRegistration": {"type": "object", "properties": {"id": {"type": "integer", "description": "absent while the registration waits for processing"}, "at": {"type": "number"}}}, "client": {"$ref": "#/components/schemas/Client"}}},
          "Client": {"type": "object", "description": "The app as it registered with this server: its SDK, findings by code, the X-Subscriber-Token handed out and whether it came back", "required": ["sdk", "profile", "subscriberToken", "firstSeen", "lastSeen", "findings", "severities", "refused", "otherRoutes"], "properties": {"sdk": {"type": "string", "enum": ["ios", "android", "unknown"]}, "sdkVersion": {"type": "string", "nullable": true}, "profile": {"type": "string", "description": "the profile the device is judged by, as --sdk names it: android@9.0.0, ios@10.0.0, documented"}, "platform": {"type": "string", "nullable": true}, "systemVersion": {"type": "string", "nullable": true}, "bundleID": {"type": "string", "nullable": true}, "appVersion": {"type": "string", "nullable": true}, "subscriberToken": {"type": "string", "description": "the X-Subscriber-Token handed out, masked as every token RegScope prints: its first four characters, its length and a fingerprint (rs-0…(35 chars) #1a2b3c4d), or (none issued)"}, "subscriberTokenReturned": {"type": "boolean", "nullable": true}, "firstSeen": {"type": "number"}, "lastSeen": {"type": "number"}, "findings": {"type": "object", "additionalProperties": {"type": "integer"}}, "severities": {"type": "object", "description": "findings counted by severity", "required": ["violation", "warning", "note"], "properties": {"violation": {"type": "integer"}, "warning": {"type": "integer"}, "note": {"type": "integer"}}}, "refused": {"type": "integer", "description": "registrations the server refused (S1)"}, "lastRefusal": {"type": "string", "nullable": true, "description": "the newest refusal, its reason and its fix"}, "otherRoutes": {"type": "object", "additionalProperties": {"type": "integer"}}}},
          "Finding": {"type": "object", "description": "severity: violation (no correct SDK of this kind sends this), warning (a correct SDK sends it, but it costs the business), note (odd, explained by the cause the server cannot see)", "required": ["code", "rule", "message", "severity"], "properties": {"code": {"type": "string", "enum": "FINDING-CODES"}, "rule": {"type": "string"}, "message": {"type": "string"}, "severity": {"type": "string", "enum": ["violation", "warning", "note"]}, "cause": {"type": "string", "enum": ["background", "relaunch", "lostAnswer", "platformSchedule"], "nullable": true}, "fix": {"type": "string", "nullable": true, "description": "for a violation or a warning: what to change in the app, in one sentence"}}},
          "MobileAppMessagingEvent": {"type": "object", "description": "The body the Mobile App Messaging SDK was seen to send (SDK-FACTS, A second registration)", "properties": {"eventId": {"type": "string"}, "registrationId": {"type": "string"}, "deviceId": {"type": "string"}, "dateTimeInDevice": {"type": "string"}, "deviceSystemToken": {"type": "string"}, "pushEnabled": {"type": "boolean"}, "deviceTimeZone": {"type": "string"}, "deviceModel": {"type": "string"}, "devicePlatform": {"type": "string"}, "deviceVersion": {"type": "string"}, "sdkVersion": {"type": "string"}, "mobileAppId": {"type": "string"}, "mobileAppName": {"type": "string"}, "mobileAppVersion": {"type": "string"}, "locale": {"type": "string"}, "attributes": {}, "partyIdentificationNumber": {"type": "string"}, "partyIdentificationType": {"type": "string"}, "partyIdentificationName": {"type": "string"}}},
          "DeviceFields": {"type": "object", "required": ["deviceID", "registrationsRead", "fields"], "properties": {"deviceID": {"type": "string"}, "registrationsRead": {"type": "integer", "description": "the device's registrations the server still holds, which the story is read from"}, "registrationsRejected": {"type": "integer", "description": "of those, the ones processing rejected (S5, S6)"}, "judgement": {"type": "object", "nullable": true, "description": "what the watch found of the device: every violation and warning (findings), sends answered with a failure, refusals (S1); the explanation is told from these", "properties": {"findings": {"type": "array", "items": {"type": "object", "properties": {"code": {"type": "string"}, "severity": {"type": "string", "enum": ["violation", "warning", "note"]}, "rule": {"type": "string", "nullable": true}, "count": {"type": "integer"}, "message": {"type": "string", "nullable": true}, "fix": {"type": "string", "nullable": true}}}}, "sends": {"type": "integer"}, "failedSends": {"type": "integer"}, "failures": {"type": "array", "items": {"type": "string"}}, "newestFailed": {"type": "boolean"}, "refusedCount": {"type": "integer"}, "refusalStatus": {"type": "integer", "nullable": true}, "refusal": {"type": "string", "nullable": true}, "newestRefused": {"type": "boolean"}}}, "contactKey": {"type": "string", "nullable": true}, "nextSend": {"type": "string", "nullable": true, "description": "the earliest a change made now goes out (the throttle window)"}, "readBack": {"type": "object", "nullable": true, "description": "the tenant's newest read-back, without its fields (each field carries its own line as tenant)", "properties": {"askedAt": {"type": "number"}, "registrationID": {"type": "integer"}, "window": {"type": "number"}, "contactKey": {"type": "string", "nullable": true}, "addressFound": {"type": "boolean"}, "allHeld": {"type": "boolean"}, "outcome": {"type": "string", "enum": ["arrived", "notAsSent", "notArrived", "moved", "notRead", "notAsked", "noAnswer"], "description": "the read-back as a whole; every view says it with one word: arrived, NOT AS SENT, NOT ARRIVED, moved, not read, not asked, no answer"}, "problem": {"type": "string", "nullable": true}, "summary": {"type": "string"}}}, "fields": {"type": "array", "items": {"type": "object", "required": ["kind", "name", "events", "notes"], "properties": {"kind": {"type": "string", "enum": ["attribute", "tag", "contactKey"]}, "name": {"type": "string"}, "holds": {"type": "string", "nullable": true, "description": "what the contact holds now, as processing left it"}, "tenant": {"type": "object", "nullable": true, "description": "what the tenant held of this field when last asked", "properties": {"askedAt": {"type": "number"}, "verdict": {"type": "string", "enum": ["heldAsSent", "heldOther", "notThere", "notArrived", "notRead"]}, "word": {"type": "string", "description": "the verdict as every view names it: held as sent, other value, not there, NOT ARRIVED, moved, not read"}, "addressFound": {"type": "boolean", "description": "whether the tenant holds the device's push address at all"}, "cause": {"type": "string", "nullable": true}, "sent": {"type": "string", "nullable": true}, "held": {"type": "string", "nullable": true}, "heldFrom": {"type": "integer", "nullable": true}}}, "notes": {"type": "array", "items": {"type": "string"}}, "events": {"type": "array", "items": {"type": "object", "required": ["at", "registrationID", "outcome"], "properties": {"at": {"type": "number"}, "registrationID": {"type": "integer"}, "value": {"type": "string", "nullable": true}, "outcome": {"type": "string", "enum": ["accepted", "rejected", "waiting"]}, "why": {"type": "string", "nullable": true}, "undefinedAttributes": {"type": "array", "nullable": true, "description": "the attributes not in the demographics table that got the registration rejected (S5)", "items": {"type": "string"}}}}}}}}}},
          "ReadBack": {"type": "object", "required": ["askedAt", "registrationID", "registrationAt", "window", "addressFound", "outcome", "fields", "summary"], "description": "what the tenant held of a relayed device once the window after its 2xx had passed, beside what the app sent", "properties": {"askedAt": {"type": "number"}, "registrationID": {"type": "integer", "description": "the registration compared: the newest the tenant answered 2xx at least window seconds before"}, "registrationAt": {"type": "number"}, "window": {"type": "number"}, "contactKey": {"type": "string", "nullable": true}, "addressFound": {"type": "boolean"}, "addressStatus": {"type": "string", "nullable": true, "description": "the address's status as the tenant keeps it: its validity (Active, Inactive), never its opt-in"}, "outcome": {"type": "string", "enum": ["arrived", "notAsSent", "notArrived", "moved", "notRead", "notAsked", "noAnswer"], "description": "the read-back as a whole; every view says it with one word: arrived, NOT AS SENT, NOT ARRIVED, moved, not read, not asked, no answer"}, "problem": {"type": "string", "nullable": true, "description": "why the tenant was not asked or could not answer"}, "summary": {"type": "string"}, "fields": {"type": "array", "items": {"type": "object", "required": ["kind", "name", "verdict"], "properties": {"kind": {"type": "string", "enum": ["attribute", "contactKey"]}, "name": {"type": "string"}, "sent": {"type": "string", "nullable": true}, "held": {"type": "string", "nullable": true}, "verdict": {"type": "string", "enum": ["heldAsSent", "heldOther", "notThere", "notArrived", "notRead"]}, "heldFrom": {"type": "integer", "nullable": true, "description": "the registration that sent the value held instead"}}}}}},
          "Timeline": {"type": "object", "required": ["deviceID", "client", "registrationCount", "registrations", "mobileAppMessaging", "readBacks"], "properties": {"readBacks": {"type": "array", "description": "the tenant's answers to 'did it arrive?' (--tenant with --upstream), oldest first", "items": {"$ref": "#/components/schemas/ReadBack"}}, "readBackDue": {"type": "number", "nullable": true, "description": "when the tenant is next asked about this device"}, "deviceID": {"type": "string"}, "client": {"$ref": "#/components/schemas/Client"}, "registrationCount": {"type": "integer"}, "mobileAppMessaging": {"type": "array", "description": "Mobile App Messaging calls, oldest first: shown, never judged", "items": {"type": "object", "required": ["at", "kind", "title", "fields"], "properties": {"at": {"type": "number"}, "kind": {"type": "string", "enum": ["registration", "engagement", "billing"]}, "title": {"type": "string"}, "status": {"type": "integer", "nullable": true}, "fields": {"type": "array", "description": "the body's fields in the order the SDK was seen to send them, then others; deviceSystemToken fingerprinted; values other than strings as compact JSON", "items": {"type": "object", "required": ["name", "value"], "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}}}}}, "next": {"type": "object", "nullable": true, "description": "the earliest the device's SDK could register next", "required": ["at", "rule", "why"], "properties": {"at": {"type": "number"}, "rule": {"type": "string"}, "why": {"type": "string"}}}, "registrations": {"type": "array", "items": {"type": "object", "required": ["at", "changes", "findings", "subscriberTokenSent"], "properties": {"at": {"type": "number"}, "interval": {"type": "number", "nullable": true}, "status": {"type": "integer", "nullable": true}, "retryAfter": {"type": "number", "nullable": true}, "body": {"type": "string", "nullable": true}, "changes": {"type": "array", "items": {"type": "string"}}, "findings": {"type": "array", "items": {"$ref": "#/components/schemas/Finding"}}, "subscriberTokenSent": {"type": "boolean"}}}}}},
          "RegistrationStatus": {"type": "object", "required": ["id", "status", "receivedAt", "processAt"], "properties": {"id": {"type": "integer"}, "status": {"type": "string", "enum": ["received", "processed", "rejected"]}, "deviceID": {"type": "string", "nullable": true}, "subscriberKey": {"type": "string", "nullable": true}, "receivedAt": {"type": "number"}, "processAt": {"type": "number"}, "processedAt": {"type": "number", "nullable": true}, "reason": {"type": "string", "nullable": true}, "contactKey": {"type": "string", "nullable": true}}},
          "DemographicsRefresh": {"type": "object", "required": ["refreshed", "attributeSet", "attributes", "added", "removed"], "properties": {"refreshed": {"type": "boolean", "description": "false when the tenant could not answer"}, "attributeSet": {"type": "string", "description": "the tenant's attribute set, MobilePush Demographics"}, "attributes": {"type": "array", "items": {"type": "string"}, "description": "the names in use now"}, "added": {"type": "array", "items": {"type": "string"}}, "removed": {"type": "array", "items": {"type": "string"}}, "problem": {"type": "string", "nullable": true, "description": "why the tenant could not answer"}}},
          "Stats": {"type": "object", "required": ["distinctContacts", "orphanedContacts", "devices", "pending"], "properties": {"distinctContacts": {"type": "integer"}, "orphanedContacts": {"type": "integer"}, "madeUpContacts": {"type": "integer"}, "devices": {"type": "integer"}, "activeDevices": {"type": "integer"}, "pending": {"type": "integer"}, "processed": {"type": "integer"}, "rejected": {"type": "integer"}, "received": {"type": "integer"}, "definedAttributes": {"type": "array", "nullable": true, "items": {"type": "string"}}, "processingDelay": {"type": "number"}, "fault": {"type": "string", "nullable": true}}},
          "Fault": {
            "type": "object",
            "description": "A status, or a mode; down needs seconds",
            "oneOf": [
              {"required": ["status"], "not": {"required": ["mode"]}},
              {"required": ["mode"], "not": {"required": ["status"]}, "properties": {"mode": {"enum": ["hang", "drop"]}}},
              {"required": ["mode", "seconds"], "not": {"required": ["status"]}, "properties": {"mode": {"enum": ["down"]}}}
            ],
            "properties": {"status": {"type": "integer", "minimum": 400, "maximum": 599}, "mode": {"type": "string", "enum": ["hang", "drop", "down"]}, "times": {"type": "integer", "minimum": 1, "maximum": 1000000}, "seconds": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 31622400}, "retryAfter": {"type": "number", "minimum": 0, "maximum": 31622400}}
          }
        }
      }
    }
    """#
}
