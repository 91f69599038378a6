import sys

def main():
    for line in sys.stdin:
        line=line.strip()
        if line == "":
            continue
        a, b=map(int, line.split(" "))
        print len(list(str(a + b)))


main()
