# El informe después de clase: la pestaña Informe de la ventana, que imprime una página por
# asignación. La aplicación también escribe el mismo informe en HTML con estos mensajes.

## Opciones sobre el informe (solo en la ventana; no se imprimen).

report-options = Opciones del informe
report-assignment = Asignación
report-every-assignment = todas las asignaciones
report-names-option = Nombres en el informe (su copia personal: un informe normal muestra identificadores anónimos)
report-print = Imprimir o guardar como PDF

## Encabezado del informe.

report-title = { $class }: informe después de clase
report-title-with-names = { $class }: informe después de clase (con nombres)
report-made = Generado el { $when }
report-no-pathway = Todavía no hay ninguna ruta asignada.

## Una asignación.

report-completion = { $learners ->
    [one] { $learners } estudiante
   *[other] { $learners } estudiantes
}: { $started ->
    [one] { $started } empezó
   *[other] { $started } empezaron
}, { $finished ->
    [one] { $finished } terminó todos los pasos.
   *[other] { $finished } terminaron todos los pasos.
}

## La tabla de pasos.

report-steps-caption = Cada paso, según el intento más reciente de cada estudiante
report-step = Paso
report-right-first-try = Bien al primer intento
report-right-after-retries = Bien tras reintentar
report-wrong = Mal
report-no-verdict = Sin veredicto
report-not-reached = Sin alcanzar
report-mean-attempts = Intentos (media)
report-mean-hints = Pistas (media)
report-median-time = Tiempo mediano
report-median-time-explained = Desde que terminan el paso anterior hasta que terminan este (el primer paso no tiene)
report-helped-then-right = Ayudados · luego bien
report-helped-then-right-explained = Solicitudes de ayuda respondidas o rechazadas en el paso, y cuántos de esos estudiantes lo hicieron bien después
report-common-responses = Respuestas frecuentes
report-step-row = { $position }. { $title }
report-step-standard = ({ $standard })
report-count-list = { $step }, { $outcome }: { $count }; ver la lista
report-helped-then-right-counts = ayudados { $helped } · luego bien { $right }
report-response-times = × { $count }

## Los estudiantes detrás de un recuento.

report-who-heading = { $step }: { $outcome ->
    [first_try] bien al primer intento
    [after_retries] bien tras reintentar
    [incorrect] mal
    [no_verdict] completado, sin veredicto
   *[not_reached] sin alcanzar
} ({ $count })

## Dominio por estándar.

report-mastery-caption = Dominio por estándar
report-standard = Estándar
report-learners = Estudiantes
report-checked = Evaluadas
report-correct = Correctas
report-summary = Resumen
report-all-standards = Todos los estándares
report-correct-of-checked = { $correct } de { $checked } correctas
report-not-enough-evidence = evidencia insuficiente ({ $checked } evaluadas)

## Quién necesita seguimiento.

report-follow-ups = Quién necesita seguimiento
report-nobody = Nadie.
report-follow-up = { $learner } — { $step }: { $reason }
report-reason-missed-help = solicitud de ayuda sin atender
report-reason-wrong-answer = respuesta incorrecta
