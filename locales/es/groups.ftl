# Grupos de estudiantes que crea el docente (se guardan en este equipo) y el filtro que reduce
# todas las vistas de una clase a un grupo.

## El filtro, en la cabecera de la clase.

groups-show = Mostrar
groups-whole-class = toda la clase
groups-option = { $name } ({ $size })
groups-filter-on = Todas las vistas muestran solo el grupo { $group } ({ $count ->
        [one] { $count } estudiante
       *[other] { $count } estudiantes
    }).
groups-filter-on-unsized = Todas las vistas muestran solo el grupo { $group }.
groups-show-whole-class = Mostrar toda la clase

## La pestaña Grupos.

groups-title = Grupos
groups-intro = Los grupos se quedan en este equipo. Elija uno encima de las pestañas para reducir todas las vistas a ese grupo.
groups-none = Todavía no hay grupos.
groups-group = { $name } ({ $count ->
        [one] { $count } estudiante
       *[other] { $count } estudiantes
    }): { $members }
groups-names-separator = { ", " }
groups-delete = Eliminar
groups-delete-label = Eliminar el grupo { $name }
groups-suggested = Sugeridos por las evidencias
groups-make-suggested = Crear este grupo
groups-suggested-misconception = { $count ->
    [one] { $count } estudiante: { $misconception }
   *[other] { $count } estudiantes: { $misconception }
}
groups-suggested-missed = { $count ->
    [one] { $count } estudiante no logró { $standard }
   *[other] { $count } estudiantes no lograron { $standard }
}
groups-new = Grupo nuevo
groups-name = Nombre
groups-learners = Estudiantes
groups-make = Crear el grupo
groups-no-home = Los grupos se guardan en el archivo propio de cada docente: este almacén compartido no tiene ninguno al lado.
