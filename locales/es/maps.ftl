# Los dos mapas de la clase: el mapa de conocimientos (los estándares, con cuántos estudiantes hay
# en cada estado) y el mapa de la ruta (los pasos, con cuántos estudiantes hicieron cada uno).

## Ambos mapas.

maps-show-as = Mostrar como
maps-show-map = Mapa
maps-show-table = Tabla
maps-groups-under-k = No se muestran los grupos de menos de { $k }.
maps-learners-on = Estudiantes en { $title }
maps-close = Cerrar
maps-group-count = { $group } ({ $count })
maps-list-separator = {", "}
maps-fewer-than = menos de { $k }
maps-hidden-small-group = oculto (protege a un grupo pequeño)

## El mapa de conocimientos.

maps-knowledge-map = Mapa de conocimientos
maps-no-standard = Todavía no hay ningún estándar en las rutas asignadas.
maps-states = Estados
maps-state-known = lo sabe
maps-state-missed = lo falló
maps-state-dont-know = aún no lo sabe
maps-state-taught = enseñado
maps-state-candidate = sin ver aún
maps-knowledge-graph-title = Los estándares y sus requisitos previos (la tabla muestra lo mismo)
maps-state-count = { $state }: { $count }
maps-standard-summary = { $title }: { $counts }
maps-misconception-title = Concepto erróneo: { $name } ({ $count ->
    [one] { $count } estudiante
   *[other] { $count } estudiantes
})
maps-misconception-label = { $name } · { $count }
maps-knowledge-table-caption = Estudiantes en cada estado, por estándar
maps-standard = Estándar
maps-builds-on = Se basa en
maps-misconceptions-caption = Conceptos erróneos observados
maps-misconception = Concepto erróneo
maps-learners = Estudiantes

## El mapa de la ruta.

maps-pathway-map = Mapa de la ruta
maps-assign-a-pathway = Asigne una ruta para ver su mapa.
maps-class-size = { $count ->
    [one] { $count } estudiante
   *[other] { $count } estudiantes
}
maps-paced-up-to-step = Ritmo hasta el paso { $step }
maps-not-paced = Sin límite de ritmo
maps-pathway-finished = · { $count ->
    [one] { $count } terminó
   *[other] { $count } terminaron
}
maps-in-pathway = ({ $pathway })
maps-statuses = Estados
maps-legend-done = hecho
maps-legend-current = actual (el primer paso sin hacer)
maps-legend-upcoming = pendiente
maps-legend-pacing-limit = límite de ritmo
maps-status-done = Hecho
maps-status-current = Actual
maps-status-upcoming = Pendiente
maps-step-done = hecho: { $count }
maps-step-current = actual: { $count }
maps-step-upcoming = pendiente: { $count }
maps-fewer-than-short = <{ $k }
maps-hidden = oculto
maps-pacing-up-to-here = Ritmo: hasta aquí
maps-after-pacing-limit = Tras el límite de ritmo
maps-after-limit = Tras el límite
maps-step-summary = { $position }. { $title }: { $details }
maps-step-title = { $position }. { $title }
maps-pathway-graph-title = Los pasos de { $title } en orden (la tabla muestra lo mismo)
maps-pathway-table-caption = Estudiantes con el paso hecho, actual y pendiente, por paso de { $title }
maps-step = Paso
maps-pacing = Ritmo
maps-step-number = { $position }.
