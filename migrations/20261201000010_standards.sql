-- The standards of the host's catalog and their prerequisites (`list_pathways`' optional
-- `standards`, pathway-host.md §1): the edges of the class's knowledge map. Replaced whole with
-- each catalog refresh, like `pathways`.
CREATE TABLE catalog_standards (
    code     TEXT PRIMARY KEY NOT NULL,
    title    TEXT NOT NULL,
    position INTEGER NOT NULL
);

CREATE TABLE catalog_standard_requires (
    code     TEXT NOT NULL,
    requires TEXT NOT NULL,
    PRIMARY KEY (code, requires)
);
