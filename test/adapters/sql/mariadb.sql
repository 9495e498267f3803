-- @auth/kysely-adapter on MariaDB/MySQL: the same models, with the MySQL types of the adapter's
-- own test schema: varchar(36) UUID ids, varchar(255) text (it takes a UNIQUE index), DATETIME(3).
CREATE TABLE `User` (
  `id` varchar(36) NOT NULL DEFAULT (UUID()),
  `name` varchar(255),
  `email` varchar(255) NOT NULL,
  `emailVerified` DATETIME(3),
  `image` text,
  PRIMARY KEY (`id`),
  UNIQUE KEY `User_email_unique` (`email`)
);

CREATE TABLE `Account` (
  `id` varchar(36) NOT NULL DEFAULT (UUID()),
  `userId` varchar(36) NOT NULL,
  `type` varchar(255) NOT NULL,
  `provider` varchar(255) NOT NULL,
  `providerAccountId` varchar(255) NOT NULL,
  `refresh_token` text,
  `access_token` text,
  `expires_at` bigint,
  `token_type` varchar(255),
  `scope` varchar(255),
  `id_token` text,
  `session_state` varchar(255),
  PRIMARY KEY (`id`),
  KEY `Account_userId_index` (`userId`),
  CONSTRAINT `Account_userId_fk` FOREIGN KEY (`userId`) REFERENCES `User` (`id`) ON DELETE CASCADE
);

CREATE TABLE `Session` (
  `id` varchar(36) NOT NULL DEFAULT (UUID()),
  `userId` varchar(36) NOT NULL,
  `sessionToken` varchar(255) NOT NULL,
  `expires` DATETIME(3) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `Session_sessionToken_unique` (`sessionToken`),
  CONSTRAINT `Session_userId_fk` FOREIGN KEY (`userId`) REFERENCES `User` (`id`) ON DELETE CASCADE
);

CREATE TABLE `VerificationToken` (
  `identifier` varchar(255) NOT NULL,
  `token` varchar(255) NOT NULL,
  `expires` DATETIME(3) NOT NULL,
  UNIQUE KEY `VerificationToken_token_unique` (`token`)
);
