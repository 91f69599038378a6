# Digit Number
def main():
    while True:

        try:

            line = raw_input()

        except EOFError:
            break
        a,b = [int(x) for x in line.split()]
        total = a + b
        print len(str(total))



main()
