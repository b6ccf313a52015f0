-- Graph build speed (issue 11): loading a transaction moves the last-seen of its buyer, seller, card, device and IP
-- nodes and of its edges. Free room in every page lets PostgreSQL rewrite such a row in place (a HOT update: no new
-- entry in the id, type and trigram indexes of graph_nodes or the endpoint indexes of graph_edges). Applies to pages
-- written from now on.
ALTER TABLE graph_nodes SET (fillfactor = 80);
ALTER TABLE graph_edges SET (fillfactor = 85);
