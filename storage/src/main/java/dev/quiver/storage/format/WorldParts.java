package dev.quiver.storage.format;

import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.SparseStore;
import dev.quiver.storage.table.TableSet;

/** The in-memory structures of a world that pages are written from and read into. */
public record WorldParts(EntityIndex entities, EntityNames names, TableSet tables, Schemas schemas, ReverseIndex reverse,
                         SparseStore sparse) {}
