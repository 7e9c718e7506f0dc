# La página de un estudiante (se abre desde un nombre de la cuadrícula en vivo): sus pasos, su historial de ayuda, su cronología.

student-back = Volver a la clase
student-in-parens = ({ $text })
student-no-pathway = Todavía no tiene ningún itinerario asignado.

## Un itinerario: un encabezado con su título y una tira con sus pasos.

student-progress-last-event = { $total ->
    [one] { $done } de { $total } paso hecho · última actividad hace { $ago }
   *[other] { $done } de { $total } pasos hechos · última actividad hace { $ago }
}
student-progress-not-started = { $total ->
    [one] { $done } de { $total } paso hecho · sin empezar
   *[other] { $done } de { $total } pasos hechos · sin empezar
}
student-idle = inactivo

student-outcome-first-try = bien al primer intento
student-outcome-after-retries = bien tras reintentar
student-outcome-incorrect = mal
student-outcome-no-verdict = completado, sin veredicto
student-outcome-not-reached = no alcanzado
student-status-done = hecho
student-status-current = trabajando en ello
student-status-upcoming = pendiente

student-step-numbered = { $n }. { $title }
student-step-title = { $n }. { $title }: { $words }
student-struggled = { $count ->
    [one] , tuvo dificultades { $count } vez
   *[other] , tuvo dificultades { $count } veces
}

## Un paso abierto desde la tira: sus intentos, del más reciente al más antiguo.

student-evidence-label = { $title }: evidencias
student-no-completion = Todavía no lo ha completado.
student-took = Tardó { $span }
student-took-since = (desde que terminó el paso anterior)
student-score = puntuación { $score }
student-details-caption = Detalles que informó el widget

## Historial de ayuda: cada solicitud de ayuda que envió el estudiante.

student-help-history = Historial de ayuda
student-no-help = Ninguna solicitud de ayuda.
student-help-asked = { $at }, { $step }: { $question }
student-help-waiting = en espera
student-help-waiting-mine = en espera (la ha tomado usted)
student-help-answered = respondida
student-help-answered-visit = respondida: con visita prometida
student-help-declined = rechazada
student-help-answer = — respuesta: { $answer }
student-help-visit-done = — visita prometida a las { $time }, hecha
student-help-visit-not-done = — visita prometida a las { $time }, aún pendiente
student-after-help-right-first-try = luego bien al primer intento
student-after-help-right-after-retries = luego bien tras reintentar
student-after-help-wrong = luego mal
student-after-help-no-verdict = luego terminado (sin veredicto)
student-after-help-not-yet = no alcanzado desde entonces

## Cronología: la actividad del estudiante, de la más antigua a la más reciente.

student-timeline = Cronología
student-timeline-empty = Nada todavía.
student-event = { $title }: { $what }
