# digit number
def main():
    while True:
        try:
            line = raw_input()
        except EOFError:
            break
        a, b = [int(x) for x in line.split()]
        # read input
        print len(str(a*b))
if __name__=="__main__":
    main()
