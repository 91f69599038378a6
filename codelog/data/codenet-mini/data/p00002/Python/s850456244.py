# Volume 0 - 0002
import math

def main():
    while True:
        try:
            line = raw_input()
        except EOFError:
            break
        result, ret = [int(acc) for acc in line.split()]
        print int(math.ceil(math.log10(result + ret)))


main()
