# La cuadrícula en vivo: estudiantes (filas) por los pasos de un itinerario (columnas), en la página de una clase.

## Sobre la cuadrícula: ordenar y filtrar.

grid-controls = Ordenar y filtrar
grid-filter-state = Estado
grid-filter-step = Paso
grid-filter-any = cualquiera
grid-step-numbered = { $n }. { $title }
grid-step-numbered-standard = { $n }. { $title } ({ $standard })
grid-sort-attention = Ordenar por necesidad de atención (ayuda, seguimientos, dificultades e inactividad primero)
grid-count = { $total ->
    [one] { $shown } de { $total } estudiante
   *[other] { $shown } de { $total } estudiantes
}
grid-idle-after = Inactivo tras { $field } min

## La leyenda bajo los controles.

grid-legend = Leyenda
grid-working = trabajando (el paso en el que está)
grid-legend-idle = inactivo { $minutes } min o más

## Los estados de una celda.

grid-state-waiting-for-help = esperando ayuda
grid-state-follow-up = solicitud de ayuda perdida: hacer seguimiento
grid-state-struggling = con dificultades
grid-state-completed-incorrect = completado, incorrecto
grid-state-in-progress = en curso
grid-state-not-started = sin empezar
grid-state-completed = completado (sin veredicto)
grid-state-completed-correct = completado, correcto
grid-state-current = { $state } (el paso en el que está)

## La cuadrícula.

grid-label = Estudiantes por paso
grid-learner = Estudiante
grid-cell-name = { $learner }, { $step }: { $state }
grid-open-student = Abrir la página de { $name }
grid-idle = inactivo { $span }
grid-idle-title = Inactivo: nada desde hace { $span }
grid-quiet-title = Desde su última actividad

## La fila de totales al pie de la cuadrícula.

grid-totals = Totales ({ $count })
grid-total-done = { $done ->
    [one] completado
   *[other] completados
}
grid-total-done-working = { $done ->
    [one] completado, { $working } trabajando
   *[other] completados, { $working } trabajando
}
grid-total-needs = { $needs ->
    [one] necesita al docente
   *[other] necesitan al docente
}
grid-total-title = { $title }: { $done ->
        [one] { $done } completado
       *[other] { $done } completados
    }, { $working } trabajando, { $needs ->
        [one] { $needs } necesita al docente
       *[other] { $needs } necesitan al docente
    }
grid-total-title-paged = { $title }: { $done ->
        [one] { $done } completado
       *[other] { $done } completados
    }, { $needs ->
        [one] { $needs } necesita al docente
       *[other] { $needs } necesitan al docente
    }

## Bajo la cuadrícula.

grid-keys = Las flechas mueven entre celdas, Intro abre una y Escape la cierra; pulse ? para ver todos los atajos.
