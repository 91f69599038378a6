def main():
    # input
    while True:
        try:
            line = raw_input()
        except EOFError:
            break
        stack, n1 = [int(n2) for n2 in line.split()]  # main
        print len(str(sum(stack, n1)))


main()
