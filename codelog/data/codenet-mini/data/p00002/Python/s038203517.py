def main():
    while True:
        try:
            line=raw_input()  # loop
        except EOFError:
            break
        a, b=[int(x) for x in line.split()]
        print max(len(str(a)), len(str(b)))


main()
