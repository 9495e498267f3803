-- @auth/kysely-adapter on PostgreSQL: the models of its Auth.js page (getting-started/adapters/kysely),
-- with the column types of the adapter's own PostgreSQL test schema (uuid ids, timestamptz dates).
CREATE TABLE "User" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "name" text,
  "email" text NOT NULL UNIQUE,
  "emailVerified" timestamptz,
  "image" text
);

CREATE TABLE "Account" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "userId" uuid NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
  "type" text NOT NULL,
  "provider" text NOT NULL,
  "providerAccountId" text NOT NULL,
  "refresh_token" text,
  "access_token" text,
  "expires_at" bigint,
  "token_type" text,
  "scope" text,
  "id_token" text,
  "session_state" text
);
CREATE INDEX "Account_userId_index" ON "Account" ("userId");

CREATE TABLE "Session" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "userId" uuid NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
  "sessionToken" text NOT NULL UNIQUE,
  "expires" timestamptz NOT NULL
);
CREATE INDEX "Session_userId_index" ON "Session" ("userId");

CREATE TABLE "VerificationToken" (
  "identifier" text NOT NULL,
  "token" text NOT NULL UNIQUE,
  "expires" timestamptz NOT NULL
);
