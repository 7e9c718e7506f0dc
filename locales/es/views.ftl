# Frases que la parte de Rust construye para las vistas de la ventana, y las dos respuestas
# predefinidas que el mostrador de ayuda envía al estudiante.

## Alias de los estudiantes en el modo proyector.

view-learner-alias = Estudiante { $n }
view-learner = Estudiante

view-missed-group-name = No logrado: { $standard }

## El resultado de un paso completado.

view-result-first-try = correcto al primer intento
view-result-correct-after = correcto tras { $attempts ->
        [one] { $attempts } intento
       *[other] { $attempts } intentos
    }
view-result-incorrect-after = incorrecto tras { $attempts ->
        [one] { $attempts } intento
       *[other] { $attempts } intentos
    }
view-result-no-check = completado (sin comprobación)
view-result-with-hints = { $verdict }, { $hints ->
        [one] { $hints } pista
       *[other] { $hints } pistas
    }

## La línea de tiempo de un estudiante.

view-event-struggling = con dificultades
view-event-asked = pidió ayuda
view-event-help-closed = petición de ayuda { $outcome }

## Qué pasó con una petición de ayuda.

view-help-waiting = en espera
view-help-claimed = en espera (la tomaste tú)
view-help-coming-over = respondida: vas en camino
view-help-answered = respondida
view-help-declined = rechazada
view-help-missed-followed-up = perdida, con seguimiento
view-help-missed = perdida — hacer seguimiento

view-no-host = sin servidor

view-check-unreachable = { $error }. Comprueba la dirección y que el servidor esté en marcha.

## Enviado al estudiante: las respuestas predefinidas del docente.

view-to-student-coming-over = Tu docente va en camino para ayudarte.
view-to-student-declined = Tu docente no puede responder esto aquí. Sigue adelante o vuelve a preguntar en un momento.

view-notify-new-request = { $waiting ->
        [one] Nueva petición de ayuda
       *[other] Nueva petición de ayuda ({ $waiting } en espera)
    }

view-projector-window-title = a2learn Teacher — proyector
